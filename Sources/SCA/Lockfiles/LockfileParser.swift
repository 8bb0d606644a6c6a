import Support

/// A parser for one lockfile or manifest format.
///
/// Parsers take bytes rather than paths so that tests and the fuzzer can feed them anything;
/// `file` is only used to name the origin in dependencies, problems and errors.
public protocol LockfileParser: Sendable {
    /// A short, stable name for the format (`requirements.txt`, `package-lock.json`, ...).
    static var format: String { get }
    /// Exact file names this parser reads.
    static var fileNames: [String] { get }
    /// Glob patterns (`*` only) on the file name, for families such as `requirements*.txt`.
    static var patterns: [String] { get }
    /// Reads `bytes`; throws `SentinelError(.invalidInput, "FILE:LINE: ...")` when malformed.
    func parse(_ bytes: [UInt8], file: String) throws -> LockfileResult
}

extension LockfileParser {
    /// No patterns unless the parser names some.
    public static var patterns: [String] { [] }

    /// Whether a file with this name (no directory part) belongs to this parser.
    public static func matches(fileName: String) -> Bool {
        if fileNames.contains(fileName) { return true }
        return patterns.contains { Glob.matches(pattern: $0, name: fileName) }
    }
}

/// What one lockfile yielded: its dependencies and the notices met on the way.
public struct LockfileResult: Sendable, Hashable {
    /// The file as given to the parser.
    public var file: String
    /// The format name of the parser that read it.
    public var format: String
    /// Dependencies in file order, one per (name, version), first line kept. A dependency's own
    /// `file` may differ from `file`: requirements includes report the included file's lines.
    public var dependencies: [Dependency]
    /// Lines that were not understood or cannot be matched, e.g. "not pinned".
    public var problems: [LockfileProblem]

    /// A result for `file` read by the `format` parser.
    public init(
        file: String, format: String, dependencies: [Dependency] = [],
        problems: [LockfileProblem] = []
    ) {
        self.file = file
        self.format = format
        self.dependencies = dependencies
        self.problems = problems
    }
}

/// A notice about one line of a lockfile that did not become a matchable dependency.
public struct LockfileProblem: Sendable, Hashable, CustomStringConvertible {
    /// How much the notice matters: `info` for expected gaps (unpinned, URL), `warning` for
    /// lines skipped as not understood, `error` for a file that could not be read at all.
    public enum Level: String, Sendable, Hashable, Comparable {
        case info, warning, error
        /// Orders levels by how much they matter.
        public static func < (lhs: Level, rhs: Level) -> Bool {
            lhs.rank < rhs.rank
        }
        private var rank: Int {
            switch self {
            case .info: 0
            case .warning: 1
            case .error: 2
            }
        }
    }

    /// How much the notice matters.
    public var level: Level
    /// The file the notice is about, as given to the parser.
    public var file: String
    /// 1-based line, 0 when the notice concerns the whole file.
    public var line: Int
    /// What is wrong or missing, in one line.
    public var message: String

    /// A notice at `line` (1-based, 0 for the whole file) of `file`.
    public init(_ level: Level, file: String, line: Int, _ message: String) {
        self.level = level
        self.file = file
        self.line = line
        self.message = message
    }

    /// `FILE:LINE: level: message`, the shape compilers use.
    public var description: String { "\(file):\(line): \(level.rawValue): \(message)" }
}

/// Builds the one-line error every parser throws for malformed input.
func malformed(_ file: String, _ line: Int, _ what: String) -> SentinelError {
    SentinelError(.invalidInput, "\(file):\(line): \(what)")
}

/// Keeps the first entry per (name, version): lockfiles repeat a package under several
/// descriptors or hashes, and one finding per line is what users want.
func deduplicated(_ dependencies: [Dependency]) -> [Dependency] {
    struct Key: Hashable {
        let name: String
        let version: String?
    }
    var seen = Set<Key>()
    var out: [Dependency] = []
    out.reserveCapacity(dependencies.count)
    for dependency in dependencies where seen.insert(Key(name: dependency.name, version: dependency.version)).inserted {
        out.append(dependency)
    }
    return out
}
