import Foundation

/// The PEP 263 encodings besides UTF-8 that Foundation decodes as CPython's codecs do.
extension PySourceEncoding {
    /// A CoreFoundation encoding by its `CFStringEncoding` number (Foundation on Linux decodes these).
    fileprivate static func cf(_ raw: UInt) -> String.Encoding { String.Encoding(rawValue: 0x8000_0000 | raw) }

    /// Python codec names and aliases (normalised) whose decoding Foundation reproduces, checked
    /// against CPython's codecs in PythonEncodingTests.
    static let codecs: [String: String.Encoding] = {
        var table: [String: String.Encoding] = [:]
        func add(_ names: String, _ encoding: String.Encoding) {
            for n in names.split(separator: " ") { table[String(n)] = encoding }
        }
        add("utf_8 utf8 u8 utf utf8_ucs2 utf8_ucs4 cp65001", .utf8)
        add("ascii us_ascii 646 us cp367 csascii ibm367 iso646_us iso_ir_6 ansi_x3.4_1968 ansi_x3_4_1968", .ascii)
        add("latin_1 latin1 latin l1 iso_8859_1 iso8859_1 8859 cp819 ibm819 iso_ir_100 csisolatin1", .isoLatin1)
        add("iso8859_2 iso_8859_2 latin2 l2 csisolatin2 iso_ir_101", .isoLatin2)
        add("iso8859_5 iso_8859_5 cyrillic csisolatincyrillic iso_ir_144", cf(0x0205))
        add("iso8859_7 iso_8859_7 greek greek8 csisolatingreek iso_ir_126 elot_928 ecma_118", cf(0x0207))
        add("iso8859_9 iso_8859_9 latin5 l5 csisolatin5 iso_ir_148", cf(0x0209))
        add("iso8859_15 iso_8859_15 latin9 l9", cf(0x020F))
        add("cp1250 windows_1250", .windowsCP1250)
        add("cp1251 windows_1251", .windowsCP1251)
        add("cp1252 windows_1252", .windowsCP1252)
        add("cp1253 windows_1253", .windowsCP1253)
        add("cp1254 windows_1254", .windowsCP1254)
        add("cp1255 windows_1255", cf(0x0505))
        add("cp1256 windows_1256", cf(0x0506))
        add("cp1257 windows_1257", cf(0x0507))
        add("cp1258 windows_1258", cf(0x0508))
        add("koi8_r cskoi8r", cf(0x0A02))
        add("koi8_u", cf(0x0A08))
        add("cp437 437 ibm437", cf(0x0400))
        add("cp850 850 ibm850", cf(0x0410))
        add("shift_jis shiftjis sjis s_jis csshiftjis", .shiftJIS)
        add("iso2022_jp iso2022jp iso_2022_jp csiso2022jp", .iso2022JP)
        add("gb2312 euc_cn euccn eucgb2312_cn gb2312_1980 gb2312_80 iso_ir_58 chinese", cf(0x0930))
        // GB 18030 decodes every GBK text the same way (it is a superset).
        add("gb18030 gb18030_2000 gbk 936 cp936 ms936", cf(0x0632))
        add("big5 big5_tw csbig5", cf(0x0A03))
        add("big5hkscs hkscs", cf(0x0A06))
        add("euc_kr euckr korean ksc5601 ks_c_5601 ks_c_5601_1987 ksx1001 ks_x_1001", cf(0x0940))
        add("cp949 949 ms949 uhc", cf(0x0422))
        return table
    }()
}
