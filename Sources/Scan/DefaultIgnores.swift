/// The paths a scan leaves out unless told otherwise (`--no-default-excludes`, or
/// `default-excludes: false` in `.sentinel.yml`): test code, virtual environments, vendored
/// dependencies and build output. On real projects most raw findings live there (asserts in
/// tests, third-party code the project does not own), which buries the few that matter.
public struct DefaultIgnores: Sendable, Hashable {
    /// Test code: what pytest and unittest discover, and the usual test directories.
    public static let testPatterns = ["test/", "tests/", "testing/", "test_*.py", "*_test.py", "conftest.py"]
    /// Installed or vendored code the project does not own.
    public static let dependencyPatterns = [
        ".venv/", "venv/", "node_modules/", "vendor/", "third_party/", "site-packages/",
    ]
    /// Generated output.
    public static let buildPatterns = ["build/", "dist/", ".tox/", ".eggs/", "__pycache__/"]

    /// Every default pattern, in the order the summary names them.
    public static let patterns = testPatterns + dependencyPatterns + buildPatterns

    /// Directories that are never source, whatever the settings: VCS data and tool caches.
    public static let neverScannedDirectories: Set<String> = [
        ".git", ".hg", ".svn", ".build", ".sentinel", ".mypy_cache", ".pytest_cache", ".idea", ".vscode",
    ]

    private static let tests = PatternSet(testPatterns)

    private let set: PatternSet?

    /// The standard list (`enabled`), or none.
    public init(enabled: Bool = true) {
        set = enabled ? PatternSet(Self.patterns) : nil
    }

    /// Whether `path` (relative to the scan root) is test code by the default patterns.
    public static func isTestPath(_ path: String) -> Bool {
        tests.matches(path)
    }

    /// Whether the defaults leave `path` (relative to the scan root) out.
    public func ignores(_ path: String) -> Bool {
        set?.matches(path) ?? false
    }

    /// Splits `files` into those scanned and those left out by the defaults. A file an explicit
    /// include pattern names is kept: `--include 'tests/**'` means the user wants the tests.
    public func partition(_ files: [String], include: [Glob] = []) -> (kept: [String], excluded: [String]) {
        guard set != nil else { return (files, []) }
        var kept: [String] = []
        var excluded: [String] = []
        for file in files {
            if ignores(file) && !include.contains(where: { $0.matches(file) }) {
                excluded.append(file)
            } else {
                kept.append(file)
            }
        }
        return (kept, excluded)
    }
}

/// Directory names (patterns ending in `/`, matched at any depth) and file-name globs, checked
/// over the path's bytes without splitting it into strings: every listed file is checked, and a
/// tree with a large `node_modules` has many.
private struct PatternSet: Sendable, Hashable {
    let directories: [[UInt8]]
    /// File-name globs (no `/`), as ``Glob`` matches one segment.
    let fileNames: [[UInt8]]

    init(_ patterns: [String]) {
        directories = patterns.filter { $0.hasSuffix("/") }.map { Array($0.utf8.dropLast()) }
        fileNames = patterns.filter { !$0.hasSuffix("/") }.map { Array($0.utf8) }
    }

    func matches(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { bytes in
            // The last non-empty segment is the file's name; the others are its directories.
            var name: Range<Int>?
            var start = 0
            for i in 0...bytes.count where i == bytes.count || bytes[i] == UInt8(ascii: "/") {
                defer { start = i + 1 }
                guard i > start else { continue }
                if let directory = name, isIgnoredDirectory(bytes[directory]) { return true }
                name = start..<i
            }
            guard let name else { return false }
            let text = ArraySlice(bytes[name])
            return fileNames.contains { Glob.matchSegment($0[...], text) }
        }
    }

    private func isIgnoredDirectory(_ segment: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        directories.contains { $0.count == segment.count && $0.elementsEqual(segment) }
    }
}
