import Foundation
import SCA
import Support

/// What `sentinel init` learns of a project before it writes the files that set Sentinel up: the
/// ecosystems its lockfiles pin, its languages, how its tests run (heal's verify command) and its
/// default branch. Read from names and small files only, each through `TreeReader` (no link, no
/// special file, bounded), since the tree is the repository's.
public struct ProjectSetup: Sendable, Equatable {
    /// The OSV ecosystems the lockfiles pin (`PyPI`, `npm`), sorted.
    public var ecosystems: [String] = []
    /// The languages the native analysis reads that the tree holds (`Python`).
    public var languages: [String] = []
    /// The command that runs the tests (`python3 -m pytest -q`, with `PYTHONPATH=src` in a src
    /// layout), nil when none is recognised.
    public var testCommand: String?
    /// The branch pushes to which CI scans (from `.git/HEAD`, else `main`).
    public var branch = "main"

    /// The most entries of one directory read to recognise a layout.
    static let maxEntries = 10_000

    /// An empty setup (nothing recognised).
    public init() {}

    /// Reads `directory`'s layout. Throws `.invalidInput` when it is not a directory.
    public static func detect(in directory: String) throws -> ProjectSetup {
        let tree = try TreeReader(path: directory)
        var setup = ProjectSetup()
        setup.ecosystems = try LockfileDetector.ecosystemsInUse(under: directory).ecosystems
        let top = entries(of: directory)
        let source = top.contains("src") ? entries(of: directory + "/src") : []
        if top.contains(where: { $0.hasSuffix(".py") }) || source.contains(where: { $0.hasSuffix(".py") })
            || top.contains("pyproject.toml") || top.contains("setup.py")
            || source.contains(where: { tree.exists("src/\($0)/__init__.py") })
        {
            setup.languages.append("Python")
        }
        if setup.languages.contains("Python"), hasPytestTests(top: top, tree: tree) {
            let srcLayout = source.contains { tree.exists("src/\($0)/__init__.py") }
            setup.testCommand = (srcLayout ? "PYTHONPATH=src " : "") + "python3 -m pytest -q"
        }
        if let head = try? tree.read(".git/HEAD", limit: 4096),
            let line = String(data: head, encoding: .utf8)?.split(separator: "\n").first,
            line.hasPrefix("ref: refs/heads/")
        {
            let name = String(line.dropFirst("ref: refs/heads/".count))
            if !name.isEmpty, name.utf8.count <= 200, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_./".contains($0) }) {
                setup.branch = name
            }
        }
        return setup
    }

    /// Tests pytest would collect: a `tests`/`test` directory, a `conftest.py`, `pytest.ini`, or
    /// pytest's table in `pyproject.toml`/`setup.cfg`/`tox.ini`.
    private static func hasPytestTests(top: Set<String>, tree: TreeReader) -> Bool {
        if !top.isDisjoint(with: ["tests", "test", "conftest.py", "pytest.ini"]) { return true }
        for (file, marker) in [("pyproject.toml", "[tool.pytest"), ("setup.cfg", "[tool:pytest]"), ("tox.ini", "[pytest]")]
        where top.contains(file) {
            if let data = try? tree.read(file, limit: 1 << 20), String(decoding: data, as: UTF8.self).contains(marker) {
                return true
            }
        }
        return false
    }

    /// The names in `directory`, at most `maxEntries`; none when it cannot be listed. Opened
    /// without following a link: a `src` that links elsewhere is not the project's.
    private static func entries(of directory: String) -> Set<String> {
        guard let opened = try? DirectoryDescriptor.workingDirectory.openDirectory(directory),
            let entries = try? opened.entries(limit: maxEntries)
        else { return [] }
        return Set(entries.map(\.text).filter { $0 != "." && $0 != ".." })
    }
}
