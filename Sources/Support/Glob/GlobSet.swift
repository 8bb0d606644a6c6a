/// Many globs compiled once and matched together: a path is split once, and the common shapes
/// (a bare name `node_modules`, `*.min.js`, a literal path, a literal directory `build/`) are
/// looked up in hash sets instead of tried one by one. Only the other patterns (classes, `?`,
/// `**` between segments, the policy dialect's) are matched in turn. Same answers as ``Glob/matches(_:)`` on each.
public struct GlobSet: Sendable {
    /// Bare names with no wildcard, matched against any segment of the path.
    private var names: Set<[UInt8]> = []
    /// `*` followed by a literal (`*.min.js`): matched against the end of any segment.
    private var nameSuffixes: Set<[UInt8]> = []
    /// The lengths of `nameSuffixes`, so each segment is cut once per length.
    private var suffixLengths: Set<Int> = []
    /// Literal paths with no wildcard (`src/app.py`), matched against the whole path.
    private var paths: Set<[UInt8]> = []
    /// Literal directories (`src/gen/`), matched against each leading run of segments.
    private var directories: Set<[UInt8]> = []
    /// Everything else, matched one by one.
    private var others: [Glob] = []

    /// Whether no pattern was given (nothing matches).
    public let isEmpty: Bool

    /// Compiles `globs`.
    public init(_ globs: [Glob]) {
        isEmpty = globs.isEmpty
        for glob in globs {
            guard !glob.isPolicy else {
                others.append(glob)
                continue
            }
            let segments = glob.segments
            let literal = segments.allSatisfy { !$0.contains(where: Self.isWildcard) }
            if glob.anyDepth, let only = segments.first {
                if literal {
                    names.insert(only)
                } else if only.first == UInt8(ascii: "*"), !only.dropFirst().contains(where: Self.isWildcard) {
                    nameSuffixes.insert(Array(only.dropFirst()))
                    suffixLengths.insert(only.count - 1)
                } else {
                    others.append(glob)
                }
            } else if literal, !segments.isEmpty {
                let joined = Array(segments.joined(separator: [UInt8(ascii: "/")]))
                if glob.directoryPrefix { directories.insert(joined) } else { paths.insert(joined) }
            } else {
                others.append(glob)
            }
        }
    }

    /// Whether any pattern matches `path` (relative, `/`-separated).
    public func matches(_ path: String) -> Bool {
        guard !isEmpty else { return false }
        let parts = path.split(separator: "/").map { Array($0.utf8) }
        for part in parts {
            if names.contains(part) { return true }
            for length in suffixLengths where length <= part.count {
                if nameSuffixes.contains(Array(part[(part.count - length)...])) { return true }
            }
        }
        if !paths.isEmpty || !directories.isEmpty {
            var prefix: [UInt8] = []
            for (index, part) in parts.enumerated() {
                if index > 0 { prefix.append(UInt8(ascii: "/")) }
                prefix += part
                if directories.contains(prefix) { return true }
            }
            if paths.contains(prefix) { return true }
        }
        return others.contains { $0.isPolicy ? $0.matches(path) : $0.matches(units: parts) }
    }

    private static func isWildcard(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "*") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "[")
    }
}
