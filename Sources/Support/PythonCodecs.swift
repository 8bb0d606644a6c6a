import FoundationEssentials

/// CPython's codec names, shared by every reader that decodes as Python does: the PEP 263 source
/// decoder (PythonSyntax) and pip's requirements reader (SCA). One table, checked against
/// CPython's codecs in PythonEncodingTests.
public enum PythonCodecs {
    /// A CoreFoundation encoding by its `CFStringEncoding` number (Foundation on Linux decodes these).
    private static func cf(_ raw: UInt) -> String.Encoding { String.Encoding(rawValue: 0x8000_0000 | raw) }

    /// Python codec names and aliases (normalised) whose decoding Foundation reproduces.
    public static let foundationEncodings: [String: String.Encoding] = {
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
        // Not cp437 or cp850: CPython maps 0x1A, 0x1C and 0x7F in a cycle that Foundation's DOS
        // code pages follow for a lone byte but not inside a text (PipLinesDifferentialTests saw it).
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

    /// The Foundation encoding that decodes as CPython's codec `name` does (any spelling), or nil.
    public static func foundationEncoding(named name: String) -> String.Encoding? {
        let key = normalized(name)
        return foundationEncodings[key] ?? foundationEncodings[String(key.map { $0 == "." ? "_" : $0 })]
    }

    /// Python's codec name normalisation: lowercase, runs of other characters than letters, digits and
    /// `.` become one `_`.
    public static func normalized(_ name: String) -> String {
        var out = ""
        var pendingUnderscore = false
        for c in name.lowercased() {
            if c.isASCII && (c.isLetter || c.isNumber || c == ".") {
                if pendingUnderscore && !out.isEmpty { out.append("_") }
                pendingUnderscore = false
                out.append(c)
            } else {
                pendingUnderscore = true
            }
        }
        return out
    }
}
