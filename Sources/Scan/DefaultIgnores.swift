import Findings
import Support

/// The paths a scan leaves out unless told otherwise (`--no-default-excludes`, or
/// `default-excludes: false` in `.sentinel.yml`): test code, virtual environments, vendored
/// dependencies and build output. They leave code and dependency analysis only: the secrets
/// scan reads them too. On real projects most raw findings live there (asserts in
/// tests, third-party code the project does not own), which buries the few that matter.
public struct DefaultIgnores: Sendable, Hashable {
    /// Test code: the usual test directories, what pytest and unittest discover, and what Jest,
    /// Vitest and Mocha discover in JavaScript and TypeScript (`__tests__/`, `*.test.ts`,
    /// `*.spec.jsx`; mocks beside them): one rule for every language the engine reads.
    public static let testPatterns = [
        "test/", "tests/", "testing/", "test_*.py", "*_test.py", "conftest.py",
        "__tests__/", "__mocks__/", "*.test.[jt]s", "*.test.[jt]sx", "*.test.[mc][jt]s",
        "*.spec.[jt]s", "*.spec.[jt]sx", "*.spec.[mc][jt]s",
    ]
    /// Installed or vendored code the project does not own.
    public static let dependencyPatterns = [
        ".venv/", "venv/", "node_modules/", "vendor/", "third_party/", "site-packages/",
    ]
    /// Generated output.
    public static let buildPatterns = ["build/", "dist/", ".tox/", ".eggs/", "__pycache__/"]
    /// Output directories whose name is also a common name for source (`app/build/` holding the
    /// code that builds): left out only where they are generated output, at the scan's root or
    /// beside a package manifest (`packages/web/dist/` beside `packages/web/package.json`), as
    /// the build tools write them. A nested one elsewhere is source and is analysed (hostile
    /// inputs rounds 2–3: a command injection under `app/build/` was not reported).
    public static let outputDirectories: Set<String> = ["build", "dist"]
    /// Files that make their directory a package whose build writes `build/` or `dist/` beside
    /// them: Python's, npm's, Gradle's, CMake's.
    public static let packageManifests: Set<String> = [
        "pyproject.toml", "setup.py", "setup.cfg", "package.json", "build.gradle", "build.gradle.kts", "CMakeLists.txt",
    ]

    /// Every default pattern, in the order the summary names them.
    public static let patterns = testPatterns + dependencyPatterns + buildPatterns

    /// Directories that are never source, whatever the settings: VCS data and tool caches.
    public static let neverScannedDirectories: Set<String> = [
        ".git", ".hg", ".svn", ".build", ".sentinel", ".mypy_cache", ".pytest_cache", ".idea", ".vscode",
    ]

    private static let tests = PatternSet(testPatterns)
    private static let kinds: [(DefaultExclusion.Kind, PatternSet)] = [
        (.tests, PatternSet(testPatterns)), (.dependencies, PatternSet(dependencyPatterns)),
        (.build, PatternSet(buildPatterns)),
    ]

    private let set: PatternSet?

    /// The standard list (`enabled`), or none. `packageDirectories`: the directories (relative to
    /// the scan root, `""` for the root) holding a package manifest, where an output directory
    /// (`build/`, `dist/`) is generated; nil takes every one for generated output.
    public init(enabled: Bool = true, packageDirectories: Set<String>? = nil) {
        set = enabled ? PatternSet(Self.patterns, generatedIn: packageDirectories) : nil
    }

    /// The directories among `files` (relative paths) that hold a package manifest, `""` for the root.
    public static func packageDirectories(_ files: [String]) -> Set<String> {
        Set(
            files.compactMap { file in
                let name = PathText.lastComponent(of: file)
                guard packageManifests.contains(name) else { return nil }
                return String(file.dropLast(name.count).dropLast(file.count > name.count ? 1 : 0))
            })
    }

    /// Whether `path` (relative to the scan root) is test code by the default patterns.
    public static func isTestPath(_ path: String) -> Bool {
        tests.matches(path)
    }

    /// Whether the defaults leave `path` (relative to the scan root) out.
    public func ignores(_ path: String) -> Bool {
        set?.matches(path) ?? false
    }

    /// `paths` the defaults leave out, counted by kind with the patterns that matched, in the
    /// order of `DefaultExclusion.Kind`; a path is counted once, under the first kind matching it.
    public static func exclusions(_ paths: [String]) -> [DefaultExclusion] {
        var counts: [DefaultExclusion.Kind: Int] = [:]
        var matched: [DefaultExclusion.Kind: Set<String>] = [:]
        for path in paths {
            for (kind, set) in kinds {
                guard let pattern = set.firstMatch(path) else { continue }
                counts[kind, default: 0] += 1
                matched[kind, default: []].insert(pattern)
                break
            }
        }
        return DefaultExclusion.Kind.allCases.compactMap { kind in
            guard let count = counts[kind] else { return nil }
            let order = patterns.filter { matched[kind]?.contains($0) == true }
            return DefaultExclusion(kind: kind, files: count, patterns: order)
        }
    }

    /// Splits `files` into those scanned and those left out by the defaults. A file an explicit
    /// include pattern names is kept: `--include 'tests/**'` means the user wants the tests.
    public func partition(_ files: [String], include: [Glob] = []) -> (kept: [String], excluded: [String]) {
        guard set != nil else { return (files, []) }
        var kept: [String] = []
        var excluded: [String] = []
        let included = GlobSet(include)
        for file in files {
            if ignores(file) && !included.matches(file) {
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
    /// File-name globs (no `/`), matched against a file's name alone.
    let fileNames: [Glob]
    /// Where an output directory (`DefaultIgnores.outputDirectories`) is generated: at the root
    /// and in these directories; nil: everywhere.
    let generatedIn: Set<String>?

    init(_ patterns: [String], generatedIn: Set<String>? = nil) {
        directories = patterns.filter { $0.hasSuffix("/") }.map { Array($0.utf8.dropLast()) }
        fileNames = patterns.filter { !$0.hasSuffix("/") }.map { Glob($0) }
        self.generatedIn = generatedIn
    }

    func matches(_ path: String) -> Bool { firstMatch(path) != nil }

    /// The pattern that leaves `path` out (`node_modules/`, `conftest.py`): the first ignored
    /// directory on the path, else the first file-name pattern; nil when none does.
    func firstMatch(_ path: String) -> String? {
        var path = path
        return path.withUTF8 { bytes in
            // The last non-empty segment is the file's name; the others are its directories.
            var name: Range<Int>?
            var start = 0
            for i in 0...bytes.count where i == bytes.count || bytes[i] == UInt8(ascii: "/") {
                defer { start = i + 1 }
                guard i > start else { continue }
                if let directory = name, let match = ignoredDirectory(bytes[directory]) {
                    let text = String(decoding: match, as: UTF8.self)
                    if isGenerated(text, parent: bytes[0..<max(0, directory.lowerBound - 1)]) { return text + "/" }
                }
                name = start..<i
            }
            guard let name else { return nil }
            let text = ArraySlice(bytes[name])
            return fileNames.first { $0.matches(name: text) }?.pattern
        }
    }

    /// Whether the directory `name` under `parent` is left out: an output directory only at the
    /// root or in a package directory (`generatedIn`), any other everywhere.
    private func isGenerated(_ name: String, parent: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard let generatedIn, DefaultIgnores.outputDirectories.contains(name) else { return true }
        // `a//build/x`: the parent as the tree names it, without empty segments' slashes.
        let path = String(decoding: parent, as: UTF8.self).split(separator: "/").joined(separator: "/")
        return path.isEmpty || generatedIn.contains(path)
    }

    private func ignoredDirectory(_ segment: Slice<UnsafeBufferPointer<UInt8>>) -> [UInt8]? {
        directories.first { $0.count == segment.count && $0.elementsEqual(segment) }
    }
}
