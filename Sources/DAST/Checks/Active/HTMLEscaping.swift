import Foundation

/// The forms a reflected value takes in a page: as sent, HTML-escaped, or URL-encoded.
enum HTMLEscaping {
    /// `value`, its HTML-escaped form and its form-urlencoded form (distinct ones).
    static func forms(of value: String) -> [String] {
        var escaped = ""
        for character in value {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#x27;"
            default: escaped.append(character)
            }
        }
        let alternative = escaped.replacingOccurrences(of: "&#x27;", with: "&#39;")
        let encoded = FormEncoding.encode([("", value)]).dropFirst()
        return Array(Set([value, escaped, alternative, String(encoded)]))
    }
}
