import Foundation
import Support

/// How pip turns a requirements file's bytes into numbered lines (`auto_decode`, then
/// `str.splitlines()`): a scanner that splits differently can be shown one file while pip
/// installs another (issue 26).
enum PipText {
    /// The decoded text, or why pip's reading of the file cannot be reproduced.
    enum Decoded {
        case text(String)
        case refused(String)
    }

    /// pip's `auto_decode`: a byte order mark first, then a `coding[:=]` declaration on one of
    /// the first two lines that starts with `#`, else the locale's encoding (UTF-8 here).
    static func decode(_ bytes: [UInt8]) -> Decoded {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return .text(String(decoding: bytes.dropFirst(3), as: UTF8.self)) }
        // pip tries the native (little-endian) UTF-16 mark first, so it also takes UTF-32-LE files.
        if bytes.starts(with: [0xFF, 0xFE]) { return utf16(bytes.dropFirst(2), bigEndian: nil) }
        if bytes.starts(with: [0xFE, 0xFF]) { return utf16(bytes.dropFirst(2), bigEndian: true) }
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return .refused("UTF-32 files are not read") }
        for line in bytes.split(separator: 0x0A, maxSplits: 2, omittingEmptySubsequences: false).prefix(2)
        where line.first == UInt8(ascii: "#") {
            guard let name = declaredEncoding(line) else { continue }
            return decode(bytes, declared: name)
        }
        return .text(String(decoding: bytes, as: UTF8.self))
    }

    /// Python's `str.splitlines()`: numbered lines, a final terminator adding no empty line.
    static func lines(_ text: String) -> [(number: Int, text: String)] {
        var result: [(number: Int, text: String)] = []
        var current = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            if previousWasCR, scalar == "\n" {
                previousWasCR = false
                continue
            }
            previousWasCR = scalar == "\r"
            if isLineBreak(scalar) {
                result.append((result.count + 1, String(current)))
                current = String.UnicodeScalarView()
            } else {
                current.append(scalar)
            }
        }
        if !current.isEmpty { result.append((result.count + 1, String(current))) }
        return result
    }

    static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x1C...0x1E, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }

    /// Python's `str.isspace()`, which is also what `\s` and `strip()` mean in pip's patterns.
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x1C...0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
            true
        default: false
        }
    }

    /// `coding[:=]\s*([-\w.]+)` over bytes (ASCII classes), the first match in the line.
    private static func declaredEncoding(_ line: ArraySlice<UInt8>) -> String? {
        let word = Array("coding".utf8)
        var i = line.startIndex
        while i + word.count < line.endIndex {
            defer { i += 1 }
            guard line[i..<i + word.count].elementsEqual(word) else { continue }
            var j = i + word.count
            guard line[j] == UInt8(ascii: ":") || line[j] == UInt8(ascii: "=") else { continue }
            j += 1
            while j < line.endIndex, [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D].contains(line[j]) { j += 1 }
            var name: [UInt8] = []
            while j < line.endIndex, isEncodingNameByte(line[j]) {
                name.append(line[j])
                j += 1
            }
            if !name.isEmpty { return String(decoding: name, as: UTF8.self) }
        }
        return nil
    }

    private static func isEncodingNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    /// Decodes with CPython's codec `declared` where Foundation reproduces it (`PythonCodecs`,
    /// checked against CPython); any other declaration is refused rather than read as UTF-8,
    /// since pip would read different lines.
    private static func decode(_ bytes: [UInt8], declared: String) -> Decoded {
        let key = PythonCodecs.normalized(declared)
        if key == "utf_8_sig" || key == "utf8_sig" {
            let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
            return .text(String(decoding: body, as: UTF8.self))
        }
        guard let encoding = PythonCodecs.foundationEncoding(named: declared) else {
            return .refused("declares encoding '\(declared)', which Sentinel cannot decode as pip does")
        }
        switch encoding {
        case .utf8: return .text(String(decoding: bytes, as: UTF8.self))
        case .isoLatin1: return .text(String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) })))
        case .ascii:
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return .refused("not ASCII, as its coding line declares") }
            return .text(String(decoding: bytes, as: UTF8.self))
        default:
            guard let text = String(bytes: bytes, encoding: encoding) else {
                return .refused("does not decode as '\(declared)', its coding line")
            }
            return .text(text)
        }
    }

    /// Strict UTF-16; `bigEndian` nil means Python's "utf-16": a second mark may choose the order.
    private static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool?) -> Decoded {
        var body = bytes
        var big = bigEndian ?? false
        if bigEndian == nil, body.count >= 2 {
            let mark = (body[body.startIndex], body[body.startIndex + 1])
            if mark == (0xFF, 0xFE) || mark == (0xFE, 0xFF) {
                big = mark == (0xFE, 0xFF)
                body = body.dropFirst(2)
            }
        }
        guard body.count % 2 == 0 else { return .refused("truncated UTF-16") }
        var units: [UInt16] = []
        units.reserveCapacity(body.count / 2)
        var i = body.startIndex
        while i < body.endIndex {
            let a = UInt16(body[i])
            let b = UInt16(body[i + 1])
            units.append(big ? a << 8 | b : b << 8 | a)
            i += 2
        }
        var text = String.UnicodeScalarView()
        for result in scalars(utf16: units) {
            guard let scalar = result else { return .refused("invalid UTF-16") }
            text.append(scalar)
        }
        return .text(String(text))
    }

    /// The scalars of `units`, nil for each unpaired surrogate.
    private static func scalars(utf16 units: [UInt16]) -> [Unicode.Scalar?] {
        var out: [Unicode.Scalar?] = []
        var decoder = UTF16()
        var iterator = units.makeIterator()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): out.append(scalar)
            case .emptyInput: break loop
            case .error: out.append(nil)
            }
        }
        return out
    }
}
