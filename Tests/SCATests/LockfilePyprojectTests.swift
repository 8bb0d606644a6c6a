import Foundation
import Support
import TestSupport
import Testing

@testable import SCA

/// pyproject.toml as a source of PyPI dependencies (issue 75): PEP 621, PEP 735 and Poetry's
/// tables, each entry read as a requirements line is and reported at its own line; a lockfile
/// beside it wins.
@Suite struct LockfilePyprojectTests {
    private func parse(_ text: String, file: String = "pyproject.toml") throws -> LockfileResult {
        try PyprojectParser().parse(Array(text.utf8), file: file)
    }

    @Test func pep621AndDependencyGroups() throws {
        let result = try PyprojectParser().parse(try fixture("pyproject/pyproject.toml"), file: "pyproject.toml")
        #expect(
            rows(result) == [
                Row("requests", "2.19.0", 10, true, []),
                Row("Django", nil, 11, true, []),
                Row("PyYAML", "5.3.1", 12, true, []),
                Row("psycopg2-binary", "2.9.9", 17, true, []),
                Row("pytest", "7.4.0", 20, true, []),
                Row("ruff", nil, 21, true, []),
            ])
        let byName = Dictionary(uniqueKeysWithValues: result.dependencies.map { ($0.name, $0) })
        #expect(byName["requests"]?.notes["extras"] == "socks")
        #expect(byName["PyYAML"]?.notes["markers"] == "python_version < \"3.12\"")
        #expect(byName["psycopg2-binary"]?.notes["section"] == "project.optional-dependencies.postgres")
        #expect(byName["pytest"]?.notes["section"] == "dependency-groups.test")
        #expect(
            result.problems.map(\.description) == [
                "pyproject.toml:11: info: not pinned: Django (>=4.2,<5)",
                "pyproject.toml:13: info: mylib comes from a direct reference (https://example.com/mylib-1.0.tar.gz), not matched against advisories",
                "pyproject.toml:21: info: not pinned: ruff (>=0.4)",
            ])
    }

    @Test func poetryTables() throws {
        let result = try PyprojectParser().parse(try fixture("pyproject/poetry/pyproject.toml"), file: "pyproject.toml")
        #expect(
            rows(result) == [
                Row("requests", "2.19.0", 7, true, []),
                Row("urllib3", "1.24.1", 8, true, []),
                Row("flask", nil, 9, true, []),
                Row("numpy", "1.24.4", 11, true, []),
                Row("numpy", "1.26.4", 12, true, []),
                Row("pytest", nil, 17, true, []),
            ])
        #expect(result.dependencies[1].notes["extras"] == "secure")
        #expect(result.dependencies[3].notes["python"] == "<3.9")
        #expect(result.dependencies[5].notes["section"] == "tool.poetry.group.dev.dependencies")
        #expect(
            result.problems.map(\.description) == [
                "pyproject.toml:9: info: not pinned: flask (^2.0)",
                "pyproject.toml:14: info: internal comes from a direct reference (https://example.com/internal.git), not matched against advisories",
                "pyproject.toml:17: info: not pinned: pytest",
            ])
    }

    /// Poetry's bare version is exact; its own operators are ranges, reported as written.
    @Test(
        arguments: [
            ("1.2.3", "1.2.3", nil), ("==1.2.3", "1.2.3", nil), ("=1.2.3", "1.2.3", nil), (" 1.2.3 ", "1.2.3", nil),
            ("===1.2.3", "1.2.3", nil), ("^1.2", nil, "^1.2"), ("~1.2", nil, "~1.2"), ("~=1.2", nil, "~=1.2"),
            (">=1.2,<2", nil, ">=1.2,<2"), (">=1.2 <2", nil, ">=1.2 <2"), ("1.2.*", nil, "==1.2.*"),
            ("1.0 || 2.0", nil, "1.0 || 2.0"), ("*", nil, ""),
        ] as [(String, String?, String?)])
    func poetryConstraints(constraint: String, pin: String?, specifier: String?) throws {
        let result = try parse("[tool.poetry.dependencies]\nlib = \"\(constraint)\"\n")
        #expect(rows(result) == [Row("lib", pin, 2, true, [])])
        #expect(result.dependencies.first?.notes["specifier"] == specifier)
    }

    /// The same requirement text gives the same dependency in a requirements file and here.
    @Test(
        arguments: [
            "requests==2.19.0", "requests === 2.19.0", "requests (==2.19.0)", "requests>=2,==2.19.0",
            "requests[socks, security]==2.19.0;python_version<'3.8'", "requests>=2", "requests~=2.19", "requests==2.*",
        ])
    func entriesReadAsRequirementsLines(requirement: String) throws {
        let pyproject = try parse("[project]\ndependencies = [\"\(requirement)\"]\n")
        let requirements = try RequirementsParser(loader: { _ in [] }).parse(Array(requirement.utf8), file: "r.txt")
        #expect(pyproject.dependencies.map(\.version) == requirements.dependencies.map(\.version))
        #expect(pyproject.dependencies.map(\.name) == requirements.dependencies.map(\.name))
        #expect(
            pyproject.dependencies.map { $0.notes.filter { $0.key != "section" } } == requirements.dependencies.map(\.notes))
        #expect(pyproject.problems.map(\.message) == requirements.problems.map(\.message))
    }

    @Test func aVulnerablePinIsMatchedAtItsLine() throws {
        let dir = try TemporaryDirectory.url("sca")
        defer { try? FileManager.default.removeItem(at: dir) }
        try RecordFiles.write(
            RecordFiles.json(id: "PYSEC-2018-28", name: "requests", events: #"{"introduced": "0"}, {"fixed": "2.20.0"}"#),
            "PYSEC-2018-28.json", in: dir)
        let database = try OSVDatabase(path: dir.appendingPathComponent("osv.sqlite").path)
        _ = try database.import(paths: [dir.path])
        let text = "[project]\nname = \"app\"\ndependencies = [\n  \"flask>=2\",\n  \"requests==2.19.0\",\n]\n"
        let pinned = try parse(text).dependencies.filter { $0.version != nil }
        let found = try database.lookup(pinned)
        #expect(pinned.map { "\($0.file):\($0.line) \($0.name)" } == ["pyproject.toml:5 requests"])
        #expect(found.map { $0.map(\.advisory.id) } == [["PYSEC-2018-28"]])
    }

    @Test func includeGroupCyclesAreRefusedWithAnError() throws {
        let text = """
            [dependency-groups]
            a = ["six==1.16.0", {include-group = "B"}]
            b = [{include-group = "a"}]
            c = [{include-group = "c"}, "idna==3.4"]
            d = [{include-group = "missing"}]
            """
        let result = try parse(text)
        #expect(rows(result) == [Row("six", "1.16.0", 2, true, []), Row("idna", "3.4", 4, true, [])])
        #expect(
            result.problems.map(\.description) == [
                "pyproject.toml:3: error: dependency group include cycle: a -> b -> a",
                "pyproject.toml:4: error: dependency group include cycle: c -> c",
                "pyproject.toml:5: error: dependency group 'missing' is included but not defined",
            ])
    }

    /// A chain of thousands of groups closed into a cycle, and groups each including every earlier
    /// one: followed without recursion, each group once, the cycle named by its ends.
    @Test func longAndDenseIncludesAreFollowedOnce() throws {
        var chain = "[dependency-groups]\n"
        for index in 0..<5_000 { chain += "g\(index) = [\"p\(index)==1.0\", {include-group = \"g\((index + 1) % 5_000)\"}]\n" }
        let result = try parse(chain)
        #expect(result.dependencies.count == 5_000)
        #expect(
            result.problems.map(\.description) == [
                "pyproject.toml:5001: error: dependency group include cycle: g0 -> g1 -> g2 -> g3 -> ... (4993 more) -> g4997 -> g4998 -> g4999 -> g0"
            ])

        var dense = "[dependency-groups]\n"
        for index in 0..<300 {
            dense += "g\(index) = [" + (0..<index).map { "{include-group = \"g\($0)\"}" }.joined(separator: ", ") + "]\n"
        }
        #expect(try parse(dense).problems.isEmpty)
    }

    @Test(
        arguments: [
            ("[project]\ndependencies = [\"requests==2.19.0]\n", "pyproject.toml:2: unterminated string"),
            ("[project]\ndependencies = \"requests\"\n", "pyproject.toml:2: 'project.dependencies' must be an array"),
            ("project = 1\n", "pyproject.toml:1: 'project' must be a table"),
            ("[project.optional-dependencies]\ndev = {}\n", "pyproject.toml:2: 'project.optional-dependencies.dev' must be an array"),
            ("[dependency-groups]\ntest = \"pytest\"\n", "pyproject.toml:2: 'dependency-groups.test' must be an array"),
            ("[tool.poetry]\ndependencies = [\"x\"]\n", "pyproject.toml:2: 'tool.poetry.dependencies' must be a table"),
            ("[tool.poetry]\ngroup = { dev = 1 }\n", "pyproject.toml:2: 'tool.poetry.group.dev' must be a table"),
            ("[project]\n[project]\n", "pyproject.toml:2: table [project] defined twice"),
        ])
    func malformed(text: String, message: String) {
        #expect(thrownMessage { _ = try parse(text) } == message)
    }

    @Test func entriesThatAreNotRequirementsAreNamed() throws {
        let text = """
            [project]
            dependencies = [1, "not a requirement!", "./local/pkg"]
            [dependency-groups]
            dev = [{include-group = "x", extra = 1}]
            [tool.poetry.dependencies]
            odd = 3
            """
        #expect(
            try parse(text).problems.map(\.description) == [
                "pyproject.toml:2: warning: project.dependencies: an entry is not a requirement string",
                "pyproject.toml:2: warning: requirement not understood: not a requirement!",
                "pyproject.toml:2: info: direct reference not matched against advisories: ./local/pkg",
                "pyproject.toml:4: warning: dependency-groups.dev: a table entry must be {include-group = \"NAME\"}",
                "pyproject.toml:6: warning: tool.poetry.dependencies: odd is not understood",
            ])
    }
}

/// How the detector pairs pyproject.toml with the lockfiles beside it.
@Suite struct LockfilePyprojectDetectorTests {
    @Test func aLockfileBesideItWins() throws {
        let tree = try LockfileDetectorTests.Tree()
        let manifest = "[project]\nname = \"x\"\ndependencies = [\"requests==2.19.0\"]\n"
        try tree.write("app/pyproject.toml", manifest)
        for lock in ["poetry.lock", "uv.lock", "pdm.lock"] {
            try tree.write("with-\(lock)/pyproject.toml", manifest)
            try tree.write("with-\(lock)/\(lock)", "[[package]]\nname = \"requests\"\nversion = \"2.19.0\"\n")
        }
        // A lockfile that cannot be read does not win: the manifest's pins are still checked.
        try tree.write("broken/pyproject.toml", manifest)
        try tree.write("broken/uv.lock", "[[package]\n")
        let scan = try LockfileDetector(root: tree.root).scan()
        #expect(
            scan.dependencies.map { "\($0.file):\($0.line) \($0.name)" } == [
                "app/pyproject.toml:3 requests", "broken/pyproject.toml:3 requests", "with-pdm.lock/pdm.lock:2 requests",
                "with-poetry.lock/poetry.lock:2 requests", "with-uv.lock/uv.lock:2 requests",
            ])
        #expect(scan.results.map(\.file) == scan.results.map(\.file).sorted())
        #expect(scan.errors.map(\.description) == ["broken/uv.lock:1: error: expected ']]' to close the array of tables header"])
        #expect(scan.files.filter { $0.hasSuffix("pyproject.toml") }.count == 5)
    }

    /// Named files: the lockfile wins only when it is read too.
    @Test func aNamedManifestIsReadWhenItsLockfileIsNot() throws {
        let tree = try LockfileDetectorTests.Tree()
        try tree.write("pyproject.toml", "[tool.poetry.dependencies]\nrequests = \"2.19.0\"\n")
        try tree.write("poetry.lock", "[[package]]\nname = \"requests\"\nversion = \"2.31.0\"\n")
        let detector = LockfileDetector(root: tree.root)
        #expect(detector.scan(files: ["pyproject.toml"]).dependencies.map(\.version) == ["2.19.0"])
        #expect(detector.scan(files: ["pyproject.toml", "poetry.lock"]).dependencies.map(\.version) == ["2.31.0"])
    }

    @Test func aMalformedManifestIsAOneLineError() throws {
        let tree = try LockfileDetectorTests.Tree()
        try tree.write("svc/pyproject.toml", "[project]\nname = \"svc\"\ndependencies = [\"requests==2.19.0\"\n")
        let scan = try LockfileDetector(root: tree.root).scan()
        #expect(scan.nothingReadable)
        #expect(scan.errors.map(\.description) == ["svc/pyproject.toml:4: error: unterminated array"])
    }
}
