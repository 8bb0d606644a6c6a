/// The ways an output may spell a secret's bytes, for the redactor's final scan of encoded
/// bodies: JSON string escapes (short escapes with and without `\/`, and `\uXXXX` in either
/// case), percent-encoding (either hex case, `+` for a space) and base64 (standard and URL-safe,
/// at each of the three alignments a secret can start at inside a longer encoded value, such as
/// `user:password` in a Basic credential: the characters that depend on the secret's bytes alone).
public enum EncodedForms {
    /// The forms of `secret` other than itself (duplicates possible; short ones kept: the caller
    /// drops what is too short to search for).
    public static func of(_ secret: [UInt8]) -> [[UInt8]] {
        var forms = json(secret) + percent(secret) + [Array(markdownEscaped(String(decoding: secret, as: UTF8.self)).utf8)]
        for alphabet in [standardAlphabet, urlAlphabet] {
            for alignment in 0..<3 { forms.append(base64Core(secret, alignment: alignment, alphabet: alphabet)) }
        }
        return forms.filter { $0 != secret && !$0.isEmpty }
    }

    /// What Markdown or GitHub reads in running text (emphasis, links, images, HTML, tables,
    /// headings, mentions, issue references, autolinks): escaped with a backslash.
    public static let markdownSpecials = Set("\\`*_{}[]()<>#+-.!|@~:&")

    /// `text` with every `markdownSpecials` character backslash-escaped: inert in Markdown.
    public static func markdownEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if markdownSpecials.contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    private static let hexUpper = Array("0123456789ABCDEF".utf8)
    private static let hexLower = Array("0123456789abcdef".utf8)

    static func json(_ secret: [UInt8]) -> [[UInt8]] {
        func escaped(slash: Bool, unicodeOnly: Bool, hex: [UInt8]) -> [UInt8] {
            var out: [UInt8] = []
            for byte in secret {
                let short: [UInt8]? =
                    switch byte {
                    case 0x22: Array(#"\""#.utf8)
                    case 0x5C: Array(#"\\"#.utf8)
                    case 0x2F where slash: Array(#"\/"#.utf8)
                    case 0x0A: Array(#"\n"#.utf8)
                    case 0x0D: Array(#"\r"#.utf8)
                    case 0x09: Array(#"\t"#.utf8)
                    case 0x08: Array(#"\b"#.utf8)
                    case 0x0C: Array(#"\f"#.utf8)
                    default: nil
                    }
                let needsEscape = byte < 0x20 || byte == 0x22 || byte == 0x5C || (slash && byte == 0x2F)
                if needsEscape, unicodeOnly || short == nil {
                    out += Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
                } else if let short {
                    out += short
                } else {
                    out.append(byte)
                }
            }
            return out
        }
        return [
            escaped(slash: false, unicodeOnly: false, hex: hexLower), escaped(slash: true, unicodeOnly: false, hex: hexLower),
            escaped(slash: false, unicodeOnly: true, hex: hexLower), escaped(slash: false, unicodeOnly: true, hex: hexUpper),
            escaped(slash: false, unicodeOnly: false, hex: hexUpper),
        ]
    }

    static func percent(_ secret: [UInt8]) -> [[UInt8]] {
        // Encoders differ in what they leave as it is: RFC 3986's unreserved set, or letters and digits alone.
        func encoded(hex: [UInt8], plusForSpace: Bool, alphanumericOnly: Bool = false) -> [UInt8] {
            var out: [UInt8] = []
            for byte in secret {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    out.append(byte)
                case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                    out += alphanumericOnly ? [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]] : [byte]
                case 0x20 where plusForSpace:
                    out.append(UInt8(ascii: "+"))
                default:
                    out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
                }
            }
            return out
        }
        return [
            encoded(hex: hexUpper, plusForSpace: false), encoded(hex: hexLower, plusForSpace: false),
            encoded(hex: hexUpper, plusForSpace: true), encoded(hex: hexUpper, plusForSpace: false, alphanumericOnly: true),
            encoded(hex: hexLower, plusForSpace: false, alphanumericOnly: true),
        ]
    }

    private static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The base64 characters of `secret` preceded by `alignment` other bytes that depend on the
    /// secret's bits alone (each character is six bits: those straddling a neighbour's are left out).
    static func base64Core(_ secret: [UInt8], alignment: Int, alphabet: [UInt8]) -> [UInt8] {
        let bits = [UInt8](repeating: 0, count: alignment) + secret
        let firstBit = 8 * alignment
        let endBit = 8 * bits.count
        var out: [UInt8] = []
        var character = (firstBit + 5) / 6
        while 6 * character + 6 <= endBit {
            var value = 0
            for bit in (6 * character)..<(6 * character + 6) {
                value = value << 1 | Int(bits[bit / 8] >> (7 - UInt8(bit % 8)) & 1)
            }
            out.append(alphabet[value])
            character += 1
        }
        return out
    }
}
