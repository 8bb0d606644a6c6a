/// PEP 263 source encodings: files that are not UTF-8 but declare a Latin-1 family `coding:` cookie
/// are transcoded to UTF-8 before lexing (offsets then refer to the transcoded text).
enum PySourceEncoding {
    /// The declared encoding from the first two lines (`# -*- coding: latin-1 -*-`), lowercased.
    static func cookie(_ b: [UInt8]) -> String? {
        var lineStart = 0
        for _ in 0..<2 {
            var end = lineStart
            while end < b.count && b[end] != 10 { end += 1 }
            let line = String(decoding: b[lineStart..<end], as: UTF8.self)
            if line.hasPrefix("#") || line.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("#") {
                for marker in ["coding:", "coding="] {
                    if let r = line.firstRange(of: marker) {
                        let rest = line[r.upperBound...].drop(while: { $0 == " " || $0 == "\t" })
                        let name = rest.prefix(while: {
                            $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "."
                        })
                        if !name.isEmpty { return name.lowercased() }
                    }
                }
            } else if !line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\u{0C}" }) {
                return nil
            }
            lineStart = end + 1
            if lineStart >= b.count { break }
        }
        return nil
    }

    /// Transcodes single-byte Latin-1 family text to UTF-8; nil for any other encoding.
    static func transcode(_ b: [UInt8], encoding: String) -> [UInt8]? {
        let latin1 = [
            "latin-1", "latin1", "iso-8859-1", "iso8859-1", "iso-latin-1", "l1", "cp1252", "windows-1252",
            "iso-8859-15", "latin-9",
        ]
        guard latin1.contains(where: { encoding.hasPrefix($0) }) else { return nil }
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
}
