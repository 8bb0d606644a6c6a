import Support

/// A repository path glob as policy files write them: ``Glob`` in its policy dialect (a
/// pattern without `/` matches the file name at any depth, one with `/` is anchored at the
/// repository root, `docs/` covers everything below `docs`, `\x` escapes, malformed patterns
/// are refused), decoded from and encoded as its pattern text.
public struct PathGlob: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The pattern as written.
    public var pattern: String { glob.pattern }
    private let glob: Glob

    /// Compiles `pattern`; throws `SentinelError(.invalidInput)` for an empty pattern, an
    /// unclosed `[`, a trailing `\`, an empty segment (`a//b`) or a `.`/`..` segment.
    public init(_ pattern: String) throws {
        glob = try Glob.policy(pattern)
    }

    /// Compiles a pattern written in Sentinel's own source, which the tests check.
    init(constant pattern: String) {
        do {
            glob = try Glob.policy(pattern)
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

    /// Whether the repository-relative `path` matches. A leading `./` or `/` and empty or `.`
    /// segments of `path` are ignored; `..` is compared literally (callers refuse such paths).
    public func matches(_ path: String) -> Bool { glob.matches(path) }
}
