import Support

/// A repository path glob as policy files write them, with its own matcher (libc's `fnmatch`
/// has no `**`, and a policy must mean the same thing on every host):
///
/// - `**` as a whole segment matches any number of path segments, none included;
/// - `*` matches any characters except `/`, `?` one character except `/`;
/// - `[abc]`, `[a-z]`, `[!x]` (or `[^x]`) match one character of a class; `\x` is a literal `x`;
/// - a pattern without `/` matches the file name at any depth (`*.pem` is `**/*.pem`);
///   a pattern with `/` is anchored at the repository root, and one ending in `/` covers the
///   directory and everything below it (`docs/` is `docs/**`);
/// - a leading `./` or `/` is dropped. Paths are repository-relative with `/` separators.
///
/// Patterns are compiled once and matched in time proportional to pattern × path length, so a
/// hostile policy cannot make evaluation blow up with many `**`.
public struct PathGlob: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    private let segments: [GlobSegment]

    /// Compiles `pattern`; throws `SentinelError(.invalidInput)` for an empty pattern, an
    /// unclosed `[`, a trailing `\`, an empty segment (`a//b`) or a `.`/`..` segment.
    public init(_ pattern: String) throws {
        self.pattern = pattern
        segments = try Self.compile(pattern)
    }

    /// Compiles a pattern written in Sentinel's own source, which the tests check.
    init(constant pattern: String) {
        self.pattern = pattern
        do {
            segments = try Self.compile(pattern)
        } catch {
            preconditionFailure("built-in glob: \(error)")
        }
    }

    /// Decodes the pattern text and compiles it.
    public init(from decoder: any Decoder) throws {
        try self.init(try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the pattern text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(pattern)
    }

    /// The pattern as written.
    public var description: String { pattern }

    /// Two globs are the same when written the same.
    public static func == (lhs: PathGlob, rhs: PathGlob) -> Bool { lhs.pattern == rhs.pattern }

    /// Hashes the pattern text.
    public func hash(into hasher: inout Hasher) { hasher.combine(pattern) }

    /// Whether the repository-relative `path` matches. A leading `./` or `/` and empty or `.`
    /// segments of `path` are ignored; `..` is compared literally (callers refuse such paths).
    public func matches(_ path: String) -> Bool {
        let parts = PathGlob.segments(of: path).map { Array($0.unicodeScalars) }
        guard !parts.isEmpty else { return false }
        return Self.match(segments, parts)
    }

    /// The segments of a repository-relative path, without empty and `.` segments.
    static func segments(of path: String) -> [Substring] {
        path.split(separator: "/").filter { $0 != "." }
    }

    /// Dynamic programming over (pattern segment, path segment): `reach[j]` says whether the
    /// first `i` pattern segments can consume the first `j` path segments.
    private static func match(_ pattern: [GlobSegment], _ path: [[Unicode.Scalar]]) -> Bool {
        var reach = [Bool](repeating: false, count: path.count + 1)
        reach[0] = true
        for segment in pattern {
            var next = [Bool](repeating: false, count: path.count + 1)
            switch segment {
            case .anyDepth:
                // Once reachable, every later split point is reachable too.
                var seen = false
                for index in 0...path.count {
                    seen = seen || reach[index]
                    next[index] = seen
                }
            case .name(let tokens):
                for index in 0..<path.count where reach[index] {
                    next[index + 1] = GlobSegment.match(tokens[...], path[index][...])
                }
            }
            reach = next
            if !reach.contains(true) { return false }
        }
        return reach[path.count]
    }

    private static func compile(_ pattern: String) throws -> [GlobSegment] {
        func bad(_ problem: String) -> SentinelError {
            SentinelError(.invalidInput, "glob '\(pattern)': \(problem)")
        }
        var body = Substring(pattern)
        if body.hasPrefix("./") {
            body = body.dropFirst(2)
        } else if body.hasPrefix("/") {
            body = body.dropFirst()
        }
        guard !body.isEmpty else { throw bad("empty pattern") }
        let anchored = body.contains("/")
        var directory = false
        if body.hasSuffix("/") {
            directory = true
            body = body.dropLast()
        }
        let texts = body.split(separator: "/", omittingEmptySubsequences: false)
        var segments: [GlobSegment] = anchored ? [] : [.anyDepth]
        for text in texts {
            guard !text.isEmpty else { throw bad("empty path segment") }
            guard text != ".", text != ".." else { throw bad("'\(text)' segments are not allowed") }
            if text == "**" {
                // `**/**` means the same as `**`; keeping one keeps matching linear.
                if segments.last != .anyDepth { segments.append(.anyDepth) }
            } else {
                segments.append(.name(try GlobSegment.tokens(text, fail: bad)))
            }
        }
        if directory, segments.last != .anyDepth { segments.append(.anyDepth) }
        return segments
    }
}
