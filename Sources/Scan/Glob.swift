/// Shell-style path globs as `.gitignore` and Semgrep users write them: `*` and `?` within a
/// path segment, `**` across segments, `[abc]` classes. A pattern without `/` matches the
/// file's name at any depth (`*.min.js`); a pattern ending in `/` matches a directory and
/// everything below it.
public struct Glob: Sendable, Hashable, CustomStringConvertible {
    /// The pattern text as written.
    public let pattern: String
    let segments: [[UInt8]]
    let anyDepth: Bool
    let directoryPrefix: Bool

    /// Compiles `pattern`; every string is a valid pattern.
    public init(_ pattern: String) {
        self.pattern = pattern
        var body = pattern
        if body.hasPrefix("./") { body.removeFirst(2) }
        directoryPrefix = body.hasSuffix("/")
        if directoryPrefix { body.removeLast() }
        if body.hasPrefix("/") { body.removeFirst() }
        anyDepth = !body.contains("/")
        segments = body.split(separator: "/", omittingEmptySubsequences: true).map { Array($0.utf8) }
    }

    /// The pattern text as written.
    public var description: String { pattern }

    /// Whether `path` (relative, `/`-separated) matches.
    public func matches(_ path: String) -> Bool {
        matches(parts: path.split(separator: "/").map { Array($0.utf8) })
    }

    /// Whether the path split into `parts` (its non-empty segments) matches: a ``GlobSet``
    /// splits each path once for all of its patterns.
    func matches(parts: [[UInt8]]) -> Bool {
        if anyDepth {
            // A bare name matches a file or any directory on the path.
            guard let only = segments.first else { return false }
            return parts.contains { Self.matchSegment(only[...], $0[...]) }
        }
        if directoryPrefix {
            // An empty path has no directory to be under.
            return parts.isEmpty ? false : (1...parts.count).contains { Self.matchSegments(segments[...], parts[..<$0]) }
        }
        return Self.matchSegments(segments[...], parts[...])
    }

    private static func matchSegments(_ pattern: ArraySlice<[UInt8]>, _ path: ArraySlice<[UInt8]>) -> Bool {
        guard let first = pattern.first else { return path.isEmpty }
        if first == Array("**".utf8) {
            let rest = pattern.dropFirst()
            for skip in 0...path.count where matchSegments(rest, path.dropFirst(skip)) { return true }
            return false
        }
        guard let head = path.first, matchSegment(first[...], head[...]) else { return false }
        return matchSegments(pattern.dropFirst(), path.dropFirst())
    }

    /// `*`, `?` and `[...]` within one segment (iterative with backtracking on the last `*`).
    static func matchSegment(_ pattern: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>) -> Bool {
        var p = pattern.startIndex
        var t = text.startIndex
        var starP: Int?
        var starT = t
        while t < text.endIndex {
            if p < pattern.endIndex {
                let c = pattern[p]
                if c == UInt8(ascii: "*") {
                    starP = p
                    starT = t
                    p += 1
                    continue
                }
                if c == UInt8(ascii: "["), let (matched, next) = matchClass(pattern, p, text[t]) {
                    if matched {
                        p = next
                        t += 1
                        continue
                    }
                } else if c == UInt8(ascii: "?") || c == text[t] {
                    p += 1
                    t += 1
                    continue
                }
            }
            guard let star = starP else { return false }
            p = star + 1
            starT += 1
            t = starT
        }
        while p < pattern.endIndex && pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.endIndex
    }

    /// A `[...]` class at `start`: whether `byte` is in it, and the index after `]`.
    private static func matchClass(_ pattern: ArraySlice<UInt8>, _ start: Int, _ byte: UInt8) -> (Bool, Int)? {
        var index = start + 1
        var negate = false
        if index < pattern.endIndex, pattern[index] == UInt8(ascii: "!") || pattern[index] == UInt8(ascii: "^") {
            negate = true
            index += 1
        }
        var matched = false
        var first = true
        while index < pattern.endIndex {
            let c = pattern[index]
            if c == UInt8(ascii: "]") && !first { return (matched != negate, index + 1) }
            first = false
            if index + 2 < pattern.endIndex, pattern[index + 1] == UInt8(ascii: "-"), pattern[index + 2] != UInt8(ascii: "]") {
                if byte >= c && byte <= pattern[index + 2] { matched = true }
                index += 3
            } else {
                if byte == c { matched = true }
                index += 1
            }
        }
        return nil  // no closing bracket: treat '[' literally
    }
}
