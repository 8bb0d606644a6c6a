/// Evidence text: the request that proved a finding and the excerpt of the answer around what
/// proves it, cut to a few kilobytes.
public enum Evidence {
    /// At most this many characters of evidence per finding.
    public static let limit = 4000

    /// `text` cut to `limit` characters.
    public static func bounded(_ text: String) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "…"
    }

    /// The request and the part of `response` around the first `needle` (or its status line).
    public static func of(_ request: WebRequest, _ response: WebResponse, around needle: String? = nil) -> String {
        var text = "Request: \(request.summary)\nResponse: HTTP \(response.status)"
        if let needle, let excerpt = excerpt(of: response.text, around: needle) {
            text += "\n… \(excerpt) …"
        }
        return text
    }

    /// Up to 120 characters either side of the first `needle` in `text`.
    public static func excerpt(of text: String, around needle: String) -> String? {
        guard !needle.isEmpty, let range = text.range(of: needle) else { return nil }
        let start = text.index(range.lowerBound, offsetBy: -120, limitedBy: text.startIndex) ?? text.startIndex
        let end = text.index(range.upperBound, offsetBy: 120, limitedBy: text.endIndex) ?? text.endIndex
        return String(text[start..<end])
    }
}
