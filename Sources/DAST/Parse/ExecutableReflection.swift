/// Evidence that an injected payload is live markup or code, not inert text: what the XSS
/// check reports after injecting a payload that carries a marker.
public enum ExecutableReflection: Sendable, Hashable {
    /// A real start tag (not text inside a value, comment or RCDATA) whose name contains the
    /// marker, e.g. `<sentinel-x1y2>`.
    case element(name: String)
    /// An event-handler attribute (`on...`) of a real start tag whose name or value contains the marker.
    case eventHandler(attribute: String)
    /// A URL attribute of a real start tag whose value is a `javascript:` URL containing the marker.
    case javascriptURL(attribute: String)
    /// The marker stands in code (not a string or comment) of an executable `<script>` block.
    case scriptCode
}

extension ReflectionContext {
    /// Where `payloadMarker` appears in an executable position of `html` (at most `limit`
    /// pieces of evidence). Tags are read as a browser running scripts reads them, so markup
    /// inside `<noscript>`, `<textarea>`, comments and attribute values never counts. Tag and
    /// attribute names are compared with the marker lowercased.
    public static func executableReflections(of payloadMarker: String, in html: String, limit: Int = 100)
        -> [ExecutableReflection]
    {
        let marker = Array(payloadMarker.utf8)
        let bytes = Array(html.utf8)
        // Tag names match in any case, so the quick rejection folds case too.
        let folded = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        let foldedMarker = marker.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        guard !marker.isEmpty, ByteSearch.contains(foldedMarker, in: folded, range: 0..<folded.count) else { return [] }
        var finder = ExecutableFinder(bytes: bytes, marker: marker, limit: limit)
        return finder.run()
    }

    /// Whether `payloadMarker` appears anywhere a browser would execute it.
    public static func isExecutable(payloadMarker: String, in html: String) -> Bool {
        !executableReflections(of: payloadMarker, in: html, limit: 1).isEmpty
    }
}
