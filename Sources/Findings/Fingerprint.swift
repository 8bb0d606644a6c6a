import Digest
import Support

/// Stable identities for findings: the same problem keeps its fingerprint when unrelated lines are
/// added above it, and a real change to the matched code gives a new one. The line number is never
/// hashed; the rule id, the file, the normalised code of the match and the enclosing scope are.
public enum Fingerprint {
    /// Bumped when the recipe changes, so old baselines are not silently misread.
    public static let version = "v1"

    /// SHA-256 (hex) of the identity of a match.
    /// - Parameters:
    ///   - file: the path relative to the scan root (or the URL of a web finding); two copies of the
    ///     same bug in two files are two findings.
    ///   - normalizedCode: the output of `normalize(_:style:)` for the matched region.
    ///   - enclosingScope: the function or class name, so equal lines in two functions differ.
    public static func compute(ruleId: String, file: String, normalizedCode: String, enclosingScope: String?) -> String {
        var hasher = SHA256()
        for part in [version, ruleId, file, enclosingScope ?? "", normalizedCode] {
            hasher.update(part)
            hasher.update([0])  // separator: ("ab","c") and ("a","bc") must differ
        }
        return SHA256.hexString(hasher.finalize())
    }

    /// The fingerprint of the `occurrence`-th (1-based, in line order) repeat of the same match in
    /// one file. The first occurrence keeps the base fingerprint, so adding a copy later in the file
    /// does not disturb existing baselines.
    public static func withOccurrence(_ base: String, _ occurrence: Int) -> String {
        guard occurrence > 1 else { return base }
        return SHA256.hex("\(base)#\(occurrence)")
    }

    /// The fingerprint a `Finding` gets by default: the snippet when there is one, else the message
    /// (lockfile and tool findings without code); web findings use method, URL path and parameter.
    public static func compute(
        for ruleId: String, location: Location, snippet: String?, enclosingScope: String?, message: String? = nil
    ) -> String {
        if location.isWeb, let url = location.url {
            let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
            let code = [location.method ?? "", location.parameter ?? ""].joined(separator: " ")
            return compute(ruleId: ruleId, file: path, normalizedCode: code, enclosingScope: enclosingScope)
        }
        let file = location.file ?? ""
        let code = snippet.map { normalize($0, style: CommentStyle(forPath: file)) } ?? normalize(message ?? "", style: .none)
        return compute(ruleId: ruleId, file: file, normalizedCode: code, enclosingScope: enclosingScope)
    }

    /// Gives each repeat of an identical match within a file its own fingerprint (see
    /// `withOccurrence`). Order of the returned array is the order of `findings`.
    public static func assignOccurrences(_ findings: [Finding]) -> [Finding] {
        var groups: [String: [Int]] = [:]
        for (index, finding) in findings.enumerated() {
            groups[finding.fingerprint, default: []].append(index)
        }
        var result = findings
        for indices in groups.values where indices.count > 1 {
            let ordered = indices.sorted { a, b in
                let (x, y) = (findings[a].location, findings[b].location)
                return ((x.startLine ?? 0), (x.startColumn ?? 0), a) < ((y.startLine ?? 0), (y.startColumn ?? 0), b)
            }
            for (position, index) in ordered.enumerated() {
                result[index].fingerprint = withOccurrence(findings[index].fingerprint, position + 1)
            }
        }
        return result
    }

    /// How comments look in a language, for `normalize`.
    public enum CommentStyle: Sendable, Hashable {
        /// `# ...` to end of line (Python, shell, Ruby, YAML).
        case hash
        /// `// ...` to end of line (C, JavaScript, Go, Swift, Java).
        case slashes
        /// Comments are not stripped.
        case none

        /// Guesses the style from a file name's extension.
        public init(forPath path: String) {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            let parts = name.split(separator: ".")
            let ext = parts.count > 1 ? parts.last.map { $0.lowercased() } ?? "" : ""
            switch ext {
            case "py", "pyw", "pyi", "sh", "bash", "rb", "pl", "yml", "yaml", "toml", "r", "cfg", "ini", "conf":
                self = .hash
            case "js", "jsx", "mjs", "cjs", "ts", "tsx", "go", "c", "h", "cc", "cpp", "hpp", "java", "kt",
                "swift", "rs", "cs", "scala", "php", "dart":
                self = .slashes
            default:
                self = name == "Dockerfile" || name == "Makefile" ? .hash : .none
            }
        }
    }

    /// Code with comments removed (outside string literals on the same line) and every run of
    /// whitespace, newlines included, collapsed to one space; leading and trailing space dropped.
    /// Re-indenting or re-commenting the code therefore does not change its fingerprint.
    public static func normalize(_ code: some StringProtocol, style: CommentStyle) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(code.utf8.count)
        var quote: UInt8? = nil  // the open quote character, inside a string literal
        var escaped = false
        var inComment = false
        var pendingSpace = false
        var previous: UInt8 = 0
        for byte in code.utf8 {
            if byte == UInt8(ascii: "\n") {
                // Strings in these languages rarely span lines without triple quotes; resetting
                // here keeps one stray quote from hiding every later comment.
                inComment = false
                quote = nil
                escaped = false
                pendingSpace = !out.isEmpty
                previous = byte
                continue
            }
            if inComment { continue }
            if let open = quote {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == open {
                    quote = nil
                }
            } else {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if style == .hash && byte == UInt8(ascii: "#") {
                    inComment = true
                    continue
                } else if style == .slashes && byte == UInt8(ascii: "/") && previous == UInt8(ascii: "/") {
                    // The first slash was already written; take it back.
                    if out.last == UInt8(ascii: "/") { out.removeLast() }
                    inComment = true
                    continue
                }
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
                    || byte == 0x0b || byte == 0x0c
                {
                    pendingSpace = !out.isEmpty
                    previous = byte
                    continue
                }
            }
            if pendingSpace {
                if out.last != UInt8(ascii: " ") { out.append(UInt8(ascii: " ")) }
                pendingSpace = false
            }
            out.append(byte)
            previous = byte
        }
        while out.last == UInt8(ascii: " ") { out.removeLast() }
        return String(decoding: out, as: UTF8.self)
    }
}
