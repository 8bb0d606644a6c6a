import Findings
import Foundation
import Web

/// The forms a reflected value takes in a page: as sent, HTML-escaped (either spelling of the
/// apostrophe), or URL-encoded.
enum HTMLEscaping {
    /// `value`, its HTML-escaped forms and its URL-encoded forms (space as `+` or `%20`; distinct ones).
    static func forms(of value: String) -> [String] {
        let escaped = HTMLRenderer.escape(value)
        let alternative = escaped.replacingOccurrences(of: "&#39;", with: "&#x27;")
        return Array(Set([value, escaped, alternative, FormEncoding.component(value), FormEncoding.percentEncode(value)]))
    }
}
