/// Path normalisation: RFC 3986 §5.2.4 dot-segment removal and §5.2.3 merging, in one pass
/// over the segments so a hostile path of many `../` stays linear.
enum URLPath {
    /// `path` with `.` and `..` segments removed, unsafe bytes escaped, escapes' hex
    /// uppercased, and `/` for an empty path.
    static func normalized(_ path: String) -> String {
        let encoded = URLText.encodingUnsafe(path, uppercasing: true)
        let cleaned = removingDotSegments(encoded)
        return cleaned.isEmpty ? "/" : cleaned
    }

    /// RFC 3986 §5.2.4 for paths: a `.`/`..` as the last segment leaves a trailing `/`, `..`
    /// never climbs above the root.
    static func removingDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        let absolute = path.hasPrefix("/")
        var segments = path.split(separator: "/", omittingEmptySubsequences: false)
        if absolute { segments.removeFirst() }
        var output: [Substring] = []
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            switch segment {
            case ".":
                if isLast { output.append("") }
            case "..":
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            default:
                output.append(segment)
            }
        }
        let joined = output.joined(separator: "/")
        return absolute ? "/" + joined : joined
    }

    /// RFC 3986 §5.2.3: `reference` appended to `base` without its last segment; a base with an
    /// authority and an empty path counts as `/`.
    static func merged(base: String, reference: String) -> String {
        guard let slash = base.lastIndex(of: "/") else { return "/" + reference }
        return base[...slash] + reference
    }
}
