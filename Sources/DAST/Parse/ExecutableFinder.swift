import Web

/// One pass over a response looking for a payload marker in executable positions.
struct ExecutableFinder {
    let bytes: [UInt8]
    let marker: [UInt8]
    let lowercasedMarker: String
    let limit: Int
    private var found: [ExecutableReflection] = []
    /// Whether the `<script>` just opened runs as JavaScript (from its `type`).
    private var scriptRuns = true

    init(bytes: [UInt8], marker: [UInt8], limit: Int) {
        self.bytes = bytes
        self.marker = marker
        self.lowercasedMarker = HTMLBytes.lowercased(marker[...])
        self.limit = max(0, limit)
    }

    mutating func run() -> [ExecutableReflection] {
        var tokenizer = HTMLTokenizer(bytes: bytes, scripting: true, maxAttributes: 0)
        while found.count < limit, let token = tokenizer.next() {
            switch token.kind {
            // A tag cut off by the end of input is never created by a browser.
            case .startTag where token.terminated: startTag(token)
            case .rawText where token.name == "script" && scriptRuns: script(token.contentRange)
            default: break
            }
        }
        return Array(found.prefix(limit))
    }

    private mutating func startTag(_ token: HTMLToken) {
        if token.name.contains(lowercasedMarker) { found.append(.element(name: token.name)) }
        var type: String?
        _ = HTMLAttributeScanner.scan(bytes, from: token.nameRange.upperBound) { attribute in
            let value = attribute.valueRange ?? attribute.nameRange.upperBound..<attribute.nameRange.upperBound
            if attribute.name == "type", type == nil { type = HTMLEntities.decode(bytes[value], inAttribute: true) }
            let valueHasMarker = value.count >= marker.count && ByteSearch.contains(marker, in: bytes, range: value)
            if attribute.name.hasPrefix("on"), valueHasMarker || attribute.name.contains(lowercasedMarker) {
                found.append(.eventHandler(attribute: attribute.name))
            }
            if valueHasMarker, HTMLElements.urlAttributes.contains(attribute.name),
                Self.isJavaScriptURL(HTMLEntities.decode(bytes[value], inAttribute: true))
            {
                found.append(.javascriptURL(attribute: attribute.name))
            }
        }
        if token.name == "script" { scriptRuns = Self.isJavaScriptType(type) }
    }

    private mutating func script(_ range: Range<Int>) {
        let offsets = ByteSearch.offsets(of: marker, in: bytes, range: range, limit: limit)
        var scanner = JSScanner()
        var index = range.lowerBound
        for offset in offsets {
            while index < offset { index = scanner.step(bytes, index) }
            if scanner.state == .code {
                found.append(.scriptCode)
                return
            }
        }
    }

    /// Whether a URL runs script when followed: `javascript:` once browsers strip leading
    /// spaces and controls and drop tabs and newlines anywhere.
    static func isJavaScriptURL(_ value: String) -> Bool {
        let cleaned = URLText.trimmed(value).utf8.filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        return HTMLBytes.lowercased(cleaned.prefix(11)[...]) == "javascript:"
    }

    /// Whether a `<script type>` runs as JavaScript: absent, empty, `module`, or a JavaScript MIME type.
    static func isJavaScriptType(_ type: String?) -> Bool {
        let value = URLText.trimmed(type ?? "").lowercased()
        return value.isEmpty || value == "module" || javaScriptTypes.contains(value)
            || value.hasPrefix("text/javascript")
    }

    private static let javaScriptTypes: Set<String> = [
        "application/javascript", "application/x-javascript", "application/ecmascript", "text/ecmascript",
        "text/x-javascript", "text/x-ecmascript", "text/jscript", "text/livescript",
    ]
}
