/// A path glob: the one matcher behind scan ignores, policy paths and lockfile name families.
///
/// Both dialects share: `*` and `?` within a path segment (`*` never crosses `/`), `**` as a
/// whole segment across any number of segments (none included), `[abc]`, `[a-z]`, `[!x]` (or
/// `[^x]`) classes, a leading `./` or `/` dropped, case-sensitive, paths relative with `/`.
///
/// - The ignore-file dialect, `Glob(_:)`, as `.gitignore` and Semgrep users write patterns: a
///   pattern without `/` matches a file or any directory on the path (`node_modules`,
///   `*.min.js`); one ending in `/` matches a directory and everything below it; `\` is a plain
///   character; every string is a pattern (an unclosed `[` is literal); code units are bytes.
/// - The policy dialect, `Glob.policy(_:)`: a pattern without `/` matches the file name at any
///   depth (`*.pem` is `**/*.pem`), one with `/` (a trailing one included) is anchored at the
///   root, and one ending in `/` covers the directory and everything below it (`docs/` is
///   `docs/**`); `\x` is a literal `x`; malformed patterns throw; `.` segments of a path are
///   ignored; code units are Unicode scalars.
///
/// Matching takes time proportional to pattern × path length, whatever the pattern.
public struct Glob: Sendable, Hashable, CustomStringConvertible {
    /// The pattern text as written.
    public let pattern: String
    /// Whether this is the policy dialect.
    let isPolicy: Bool
    let program: [GlobSegment]
    /// Whether an empty path (no segment) never matches, whatever `program` says.
    let needsSegment: Bool
    /// Ignore-file dialect: the pattern's segments as bytes, and its shape, for ``GlobSet``.
    let segments: [[UInt8]]
    let anyDepth: Bool
    let directoryPrefix: Bool

    /// Compiles `pattern` in the ignore-file dialect; every string is a valid pattern.
    public init(_ pattern: String) {
        self.pattern = pattern
        isPolicy = false
        var body = Substring(pattern)
        if body.hasPrefix("./") { body.removeFirst(2) }
        directoryPrefix = body.hasSuffix("/")
        if directoryPrefix { body.removeLast() }
        if body.hasPrefix("/") { body.removeFirst() }
        anyDepth = !body.contains("/")
        segments = body.split(separator: "/", omittingEmptySubsequences: true).map { Array($0.utf8) }
        let syntax = GlobToken.Syntax(escapes: false, strict: false) { SentinelError(.invalidInput, $0) }
        // A lenient syntax never throws.
        func name(_ bytes: [UInt8]) -> GlobSegment { .name((try? GlobToken.tokens(bytes.map(UInt32.init), syntax)) ?? []) }
        if anyDepth {
            // A bare name matches a file or any directory on the path.
            program = segments.first.map { [.anyDepth, name($0), .anyDepth] } ?? []
            needsSegment = true
        } else if directoryPrefix {
            // Under a directory the pattern names; a pattern naming none matches nothing.
            program = segments.isEmpty ? [] : segments.map { $0 == Array("**".utf8) ? .anyDepth : name($0) } + [.anyDepth]
            needsSegment = true
        } else {
            program = segments.map { $0 == Array("**".utf8) ? .anyDepth : name($0) }
            needsSegment = false
        }
    }

    /// Compiles `pattern` in the policy dialect; throws `SentinelError(.invalidInput)` for an
    /// empty pattern, an unclosed `[`, a reversed range, a trailing `\`, an empty segment
    /// (`a//b`) or a `.`/`..` segment.
    public static func policy(_ pattern: String) throws -> Glob {
        try Glob(policy: pattern)
    }

    private init(policy pattern: String) throws {
        func bad(_ problem: String) -> SentinelError {
            SentinelError(.invalidInput, "glob '\(pattern)': \(problem)")
        }
        self.pattern = pattern
        isPolicy = true
        needsSegment = true
        segments = []
        anyDepth = false
        directoryPrefix = false
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
        let syntax = GlobToken.Syntax(escapes: true, strict: true, fail: bad)
        var program: [GlobSegment] = anchored ? [] : [.anyDepth]
        for text in body.split(separator: "/", omittingEmptySubsequences: false) {
            guard !text.isEmpty else { throw bad("empty path segment") }
            guard text != ".", text != ".." else { throw bad("'\(text)' segments are not allowed") }
            if text == "**" {
                // `**/**` means the same as `**`; keeping one keeps matching linear.
                if program.last != .anyDepth { program.append(.anyDepth) }
            } else {
                program.append(.name(try GlobToken.tokens(text.unicodeScalars.map(\.value), syntax)))
            }
        }
        if directory, program.last != .anyDepth { program.append(.anyDepth) }
        self.program = program
    }

    /// The pattern text as written.
    public var description: String { pattern }

    /// Two globs are the same when written the same in the same dialect.
    public static func == (lhs: Glob, rhs: Glob) -> Bool { lhs.pattern == rhs.pattern && lhs.isPolicy == rhs.isPolicy }

    /// Hashes the pattern text and dialect.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(pattern)
        hasher.combine(isPolicy)
    }

    /// Whether `path` (relative, `/`-separated) matches. Empty segments of `path` are ignored,
    /// and in the policy dialect `.` segments too; `..` is compared literally.
    public func matches(_ path: String) -> Bool {
        if isPolicy {
            return matches(units: Self.policySegments(of: path).map { $0.unicodeScalars.map(\.value) })
        }
        return matches(units: path.split(separator: "/").map { Array($0.utf8) })
    }

    /// The segments of a repository-relative path as the policy dialect reads it: without
    /// empty and `.` segments.
    public static func policySegments(of path: String) -> [Substring] {
        path.split(separator: "/").filter { $0 != "." }
    }

    /// Whether the path split into `units` (its non-empty segments, as this dialect's code
    /// units: bytes or scalar values) matches: a ``GlobSet`` splits each path once for all of its patterns.
    func matches<Unit: FixedWidthInteger>(units: [[Unit]]) -> Bool {
        if needsSegment, units.isEmpty { return false }
        return GlobToken.match(program, units)
    }

    /// Whether the file name `name` (no directory part) matches `pattern`, read as one segment
    /// of the ignore-file dialect: lockfile families such as `requirements*.txt`.
    public static func matches(pattern: String, name: String) -> Bool {
        let syntax = GlobToken.Syntax(escapes: false, strict: false) { SentinelError(.invalidInput, $0) }
        guard let tokens = try? GlobToken.tokens(pattern.utf8.map(UInt32.init), syntax) else { return false }
        return GlobToken.match(tokens[...], Array(name.utf8))
    }

    /// Whether one path segment, `name` as bytes, matches this ignore-file pattern without `/`
    /// (`*.min.js`): how a file's name alone is tested. False for any other pattern.
    public func matches<Name: RandomAccessCollection>(name: Name) -> Bool where Name.Element == UInt8, Name.Index == Int {
        guard anyDepth, case .name(let tokens)? = program.dropFirst().first else { return false }
        return GlobToken.match(tokens[...], name)
    }
}
