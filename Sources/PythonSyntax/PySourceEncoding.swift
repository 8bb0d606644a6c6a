import Foundation
import Support

/// PEP 263 source encodings: a file declaring a `coding:` cookie other than UTF-8 is transcoded to
/// UTF-8 before lexing (offsets then refer to the transcoded text), as CPython decodes it.
enum PySourceEncoding {
    /// What to lex: the bytes as they are, or transcoded.
    enum Decoded {
        case asIs
        case transcoded([UInt8])
        /// UTF-8 expected but not valid on these lines (byte ranges): CPython's `ast.parse` only
        /// decodes tokens, so the file is accepted when every bad byte is inside a comment.
        case invalidUTF8(lines: [Range<Int>])
    }

    /// Decides how to read `b`, whose first `start` bytes are a UTF-8 BOM (3) or nothing (0).
    /// - Throws: ``PythonSyntaxError`` where CPython raises one: a BOM with a non-UTF-8 cookie, bytes
    ///   that do not decode in the declared (or default UTF-8) encoding.
    static func decode(_ b: [UInt8], start: Int, fileName: String) throws -> Decoded {
        func fail(_ message: String, line: Int = 1) -> PythonSyntaxError {
            PythonSyntaxError(.invalidCharacter, file: fileName, line: line, column: 1, message: message)
        }
        func unsupported(_ message: String) -> PythonSyntaxError {
            PythonSyntaxError(.unsupportedEncoding, file: fileName, line: 1, column: 1, message: message)
        }
        guard let name = cookie(b, from: start), !isUTF8(name) else {
            return String(validating: b, as: UTF8.self) != nil ? .asIs : .invalidUTF8(lines: invalidLines(b))
        }
        if start > 0 { throw fail("encoding problem: \(name) with BOM") }
        let key = normalized(name)
        // UTF-16 and UTF-32 cannot even encode the ASCII cookie line they are declared on.
        if key.hasPrefix("utf_16") || key.hasPrefix("utf16") || key.hasPrefix("utf_32") || key.hasPrefix("utf32") {
            throw fail("encoding problem: \(name) is not ASCII-compatible")
        }
        if let decoder = PyEscapeCodecs.decoder(named: key) {
            // Plain ASCII reads differently: decode as CPython does, or refuse (never lex it as is).
            do throws(PyEscapeCodecs.Failure) {
                return .transcoded(try decoder(b))
            } catch .malformed(let why), .unsupported(let why) {
                throw unsupported("source declared \(name) does not decode here: \(why)")
            }
        }
        guard let encoding = PythonCodecs.foundationEncodings[key] else {
            // A name Python knows (mac-roman, cp866...) but this table does not: pure ASCII reads the
            // same in an ASCII-transparent codec; anything else is refused rather than guessed.
            guard !b.contains(where: { $0 >= 0x80 }),
                asciiTransparent.contains(key) || asciiTransparent.contains(key.replacingOccurrences(of: ".", with: "_"))
            else { throw unsupported("unknown or unsupported encoding: \(name)") }
            return .asIs
        }
        if encoding == .utf8 || (!b.contains(where: { $0 >= 0x80 }) && encoding != .iso2022JP) {
            guard String(validating: b, as: UTF8.self) != nil else {
                throw fail("source does not decode as \(name), its coding declaration", line: firstInvalidLine(b))
            }
            return .asIs
        }
        if encoding == .isoLatin1 { return .transcoded(latin1ToUTF8(b)) }
        guard let text = String(bytes: b, encoding: encoding) else {
            throw fail("source does not decode as \(name), its coding declaration")
        }
        return .transcoded(Array(text.utf8))
    }

    /// The declared encoding from the first two lines (`# -*- coding: latin-1 -*-`) as written; the
    /// second line counts only when the first is blank or a comment. Follows CPython's
    /// `get_coding_spec`: the first `coding` followed by `:` or `=` and a non-empty name.
    static func cookie(_ b: [UInt8], from start: Int = 0) -> String? {
        var lineStart = start
        for _ in 0..<2 {
            var end = lineStart
            while end < b.count && b[end] != 10 && b[end] != 13 { end += 1 }
            var k = lineStart
            while k < end && (b[k] == 32 || b[k] == 9 || b[k] == 12) { k += 1 }
            if k < end && b[k] == UInt8(ascii: "#") {
                if let name = spec(b, from: k, to: end) { return name }
            } else if k < end {
                return nil  // code on the first line: no cookie on the second
            }
            lineStart = end < b.count && b[end] == 13 && end + 1 < b.count && b[end + 1] == 10 ? end + 2 : end + 1
            if lineStart >= b.count { break }
        }
        return nil
    }

    private static func spec(_ b: [UInt8], from: Int, to end: Int) -> String? {
        let coding = Array("coding".utf8)
        var k = from
        while k + 6 < end {
            defer { k += 1 }
            guard b[k..<k + 6].elementsEqual(coding), b[k + 6] == 58 || b[k + 6] == 61 else { continue }  // ':' '='
            var s = k + 7
            while s < end && (b[s] == 32 || b[s] == 9) { s += 1 }
            var e = s
            while e < end
                && ((b[e] | 0x20) >= 0x61 && (b[e] | 0x20) <= 0x7A || (b[e] >= 48 && b[e] <= 57) || b[e] == 45
                    || b[e] == 95 || b[e] == 46)
            {
                e += 1
            }
            if e > s { return String(decoding: b[s..<e], as: UTF8.self) }
        }
        return nil
    }

    /// CPython's `get_normal_name` test: `utf-8` and `utf-8-*` (case and `_`/`-` aside) are UTF-8 and
    /// need no decoding; every other name (even `utf8`) goes through the codec.
    static func isUTF8(_ name: String) -> Bool {
        let n = String(name.prefix(12)).lowercased().replacingOccurrences(of: "_", with: "-")
        return n == "utf-8" || n.hasPrefix("utf-8-")
    }

    /// Python's codec name normalisation (`PythonCodecs.normalized`).
    static func normalized(_ name: String) -> String { PythonCodecs.normalized(name) }

    /// Latin-1 to UTF-8 without Foundation: each byte is its own code point.
    static func latin1ToUTF8(_ b: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(b.count + b.count / 8)
        for c in b {
            if c < 0x80 {
                out.append(c)
            } else {
                out.append(0xC0 | (c >> 6))
                out.append(0x80 | (c & 0x3F))
            }
        }
        return out
    }

    /// Byte ranges of the lines (without their `\n`) that are not valid UTF-8.
    static func invalidLines(_ b: [UInt8]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var lineStart = 0
        for i in 0...b.count where i == b.count || b[i] == 10 {
            if String(validating: b[lineStart..<i], as: UTF8.self) == nil { out.append(lineStart..<i) }
            lineStart = i + 1
        }
        return out
    }

    /// Whether each of `lines` is valid UTF-8 up to a comment that runs to its end.
    static func invalidOnlyInComments(_ b: [UInt8], lines: [Range<Int>], comments: [PyComment]) -> Bool {
        var k = 0
        for line in lines {
            while k < comments.count && comments[k].range.start.offset < line.lowerBound { k += 1 }
            guard k < comments.count, case let c = comments[k].range.start.offset, line.contains(c),
                String(validating: b[line.lowerBound..<c], as: UTF8.self) != nil
            else { return false }
        }
        return true
    }

    /// The error for UTF-8 that does not decode outside comments, naming the first bad line.
    static func invalidUTF8Error(_ b: [UInt8], lines: [Range<Int>], fileName: String) -> PythonSyntaxError {
        let first = lines.first?.lowerBound ?? 0
        let line = 1 + b[..<first].reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
        return PythonSyntaxError(
            .invalidCharacter, file: fileName, line: line, column: 1,
            message: "invalid UTF-8 in source and no coding declaration")
    }

    /// The first line that is not valid UTF-8; validating line by line keeps this linear.
    static func firstInvalidLine(_ bytes: [UInt8]) -> Int {
        var line = 1
        var lineStart = 0
        for i in bytes.indices where bytes[i] == 10 {
            if String(validating: bytes[lineStart...i], as: UTF8.self) == nil { break }
            line += 1
            lineStart = i + 1
        }
        return line
    }
}
