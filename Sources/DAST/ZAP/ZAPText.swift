import Foundation

/// Text that came from ZAP (alert fields, error messages) made safe to keep: the API key
/// removed wherever a hostile or confused server echoed it, control characters dropped, and
/// the length bounded.
enum ZAPText {
    /// What replaces the API key in server text.
    static let redacted = "[redacted]"

    /// `text` with `secret` replaced, control characters other than newline and tab removed,
    /// and at most `limit` characters (an ellipsis marks a cut).
    static func clean(_ text: String, limit: Int, secret: String?) -> String {
        var text = text
        if let secret, !secret.isEmpty, text.contains(secret) {
            text = text.replacingOccurrences(of: secret, with: redacted)
        }
        let kept = text.unicodeScalars.filter { scalar in
            scalar == "\n" || scalar == "\t" || !(scalar.properties.generalCategory == .control)
        }
        var result = String(String.UnicodeScalarView(kept))
        if result.count > limit { result = String(result.prefix(max(0, limit - 1))) + "…" }
        return result
    }

    /// `text` cleaned onto one line: runs of whitespace become one space.
    static func oneLine(_ text: String, limit: Int, secret: String?) -> String {
        let flat = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        return clean(flat, limit: limit, secret: secret)
    }
}
