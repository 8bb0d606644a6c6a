import Documents
import Testing

@testable import SCA

/// The position-aware TOML reader under the parsers (JSON and YAML: DocumentsTests), and the
/// shared edges: BOM, CRLF, empty files, deduplication.
@Suite struct LockfileReaderTests {
    @Test func tomlTablesStringsAndArrays() throws {
        let text = """
            title = 'literal \\ kept'
            multi = \"\"\"
            first \\
              second\"\"\"
            raw = '''
            a 'b' c'''
            "quoted.key" = { inner = [1, 2,], flag = true }
            date = 1979-05-27 07:32:00Z

            [[package]]
            name = "a" # trailing comment
            deps = [
              "x",  # comment inside an array
              "y",
            ]

            [package.source]
            type = "git"

            [[package]]
            name = "b"

            [package.source]
            type = "url"
            """
        let root = try TOML.parse(Array(text.utf8), file: "t.toml")
        #expect(root.string("title") == "literal \\ kept")
        #expect(root.string("multi") == "first second")
        #expect(root.string("raw") == "a 'b' c")
        #expect(root.table("quoted.key")?.array("inner").count == 2)
        #expect(root["date"]?.scalarText == "1979-05-27 07:32:00Z")
        let packages = root["package"]?.elements ?? []
        #expect(packages.map(\.line) == [10, 20])
        #expect(packages.map { $0.table("source")?.string("type") } == ["git", "url"])
        #expect(packages[0].array("deps").compactMap(\.string) == ["x", "y"])
        #expect(packages[0].entries.map(\.line) == [11, 12, 17])
    }

    @Test func tomlCRLFAndBOM() throws {
        let text =
            "\u{FEFF}version = 3\r\n\r\n[[package]]\r\nname = \"serde\"\r\nversion = \"1.0.0\"\r\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\r\n"
        let result = try CargoLockParser().parse(Array(text.utf8), file: "Cargo.lock")
        #expect(rows(result) == [Row("serde", "1.0.0", 4, true, ["serde"])])
    }

    @Test func yamlCRLFAndBOM() throws {
        let text =
            "\u{FEFF}lockfileVersion: '9.0'\r\nimporters:\r\n  .:\r\n    dependencies:\r\n      a:\r\n        specifier: ^1\r\n        version: 1.0.0\r\npackages:\r\n  a@1.0.0:\r\n    resolution: {integrity: x}\r\nsnapshots:\r\n  a@1.0.0: {}\r\n"
        let result = try PnpmLockParser().parse(Array(text.utf8), file: "pnpm-lock.yaml")
        #expect(rows(result) == [Row("a", "1.0.0", 9, true, ["a"])])
    }

    /// Every fixture read with Windows line endings and a BOM gives the same table.
    @Test(arguments: allFixtures.indices)
    func crlfAndBOMChangeNothing(index: Int) throws {
        let (path, parser) = allFixtures[index]
        let unix = try fixture(path)
        var windows: [UInt8] = [0xEF, 0xBB, 0xBF]
        for byte in unix {
            if byte == 0x0A { windows.append(0x0D) }
            windows.append(byte)
        }
        let expected = try parser.parse(unix, file: path)
        let actual = try parser.parse(windows, file: path)
        #expect(rows(actual) == rows(expected))
        #expect(actual.dependencies.map(\.notes) == expected.dependencies.map(\.notes))
        #expect(actual.problems.map(\.line) == expected.problems.map(\.line))
    }

    @Test func jsonCRLFAndBOMInPackageLock() throws {
        let text =
            "\u{FEFF}{\r\n\"lockfileVersion\": 3,\r\n\"packages\": {\r\n\"\": {\"dependencies\": {\"@scope/a\": \"1\"}},\r\n\"node_modules/@scope/a\": {\"version\": \"1.0.0\"}\r\n}\r\n}\r\n"
        let result = try PackageLockParser().parse(Array(text.utf8), file: "package-lock.json")
        #expect(rows(result) == [Row("@scope/a", "1.0.0", 5, true, ["@scope/a"])])
    }

    /// Empty files: the formats whose empty form is valid give nothing; the others say why.
    @Test(
        arguments: [
            ("requirements/requirements.txt", nil), ("pipenv/Pipfile.lock", "Pipfile.lock:1: empty JSON document"),
            ("poetry/poetry.lock", nil), ("uv/uv.lock", nil), ("pdm/pdm.lock", nil), ("pyproject/pyproject.toml", nil),
            ("cargo/Cargo-v3.lock", nil),
            ("go/go.mod", nil), ("go/go.sum", nil),
            ("npm/package-lock-v1.json", "package-lock.json:1: empty JSON document"),
            ("yarn/yarn-v1.lock", nil), ("pnpm/pnpm-lock-v9.yaml", "pnpm-lock.yaml:1: empty YAML document"),
            ("ruby/Gemfile.lock", nil), ("composer/composer.lock", "composer.lock:1: empty JSON document"),
            ("swiftpm/Package-v2.resolved", "Package.resolved:1: empty JSON document"),
        ] as [(String, String?)])
    func emptyFiles(path: String, message: String?) throws {
        let parser = try #require(allFixtures.first { $0.0 == path }?.1)
        let name = type(of: parser).fileNames.first ?? String(path.split(separator: "/").last ?? "")
        let thrown = thrownMessage {
            let result = try parser.parse([], file: name)
            #expect(result.dependencies.isEmpty)
        }
        #expect(thrown == message)
    }

    @Test func deduplicationKeepsTheFirstLine() throws {
        let text = "a==1.0\nb==2.0\na==1.0\na==1.1\n"
        let result = try RequirementsParser(loader: { _ in [] }).parse(Array(text.utf8), file: "r.txt")
        #expect(
            result.dependencies.map { "\($0.name)@\($0.version ?? ""):\($0.line)" } == [
                "a@1.0:1", "b@2.0:2", "a@1.1:4",
            ])
    }
}

@Suite struct LockfileShapeTests {
    @Test(
        arguments: [
            ("-r base.txt", "-r", "base.txt"),
            ("-rbase.txt", "-r", "base.txt"),
            ("--requirement base.txt", "--requirement", "base.txt"),
            ("--requirement=base.txt", "--requirement", "base.txt"),
            ("-c  constraints.txt", "-c", "constraints.txt"),
            ("--pre", "--pre", nil),
        ] as [(String, String, String?)])
    func requirementOptions(line: String, flag: String, argument: String?) {
        let (parsedFlag, parsedArgument) = RequirementsParser.splitOption(line)
        #expect(parsedFlag == flag)
        #expect(parsedArgument == argument)
    }

    @Test(arguments: [
        ("base.txt", "requirements.txt", "base.txt"),
        ("../base.txt", "deps/prod/requirements.txt", "deps/base.txt"),
        ("./common/../x.txt", "deps/r.txt", "deps/x.txt"),
        ("../../x.txt", "deps/r.txt", "../x.txt"),
    ])
    func includePaths(target: String, file: String, expected: String) {
        #expect(RequirementsParser.resolve(target, relativeTo: file) == expected)
    }

    @Test func packageLockAliasesUseTheRealName() throws {
        let text = """
            {
              "lockfileVersion": 3,
              "packages": {
                "": { "dependencies": { "string-width-cjs": "npm:string-width@^4.2.0" } },
                "node_modules/string-width-cjs": {
                  "name": "string-width",
                  "version": "4.2.3"
                }
              }
            }
            """
        let result = try PackageLockParser().parse(Array(text.utf8), file: "package-lock.json")
        #expect(rows(result) == [Row("string-width", "4.2.3", 5, true, ["string-width"])])
    }

    @Test func poetryOnePointOneMetadataFiles() throws {
        let text = """
            [[package]]
            name = "six"
            version = "1.16.0"
            description = "Python 2 and 3 compatibility utilities"
            category = "main"
            optional = false
            python-versions = ">=2.7, !=3.0.*, !=3.1.*, !=3.2.*"

            [metadata]
            lock-version = "1.1"
            python-versions = "^3.8"
            content-hash = "abc"

            [metadata.files]
            six = [
                {file = "six-1.16.0-py2.py3-none-any.whl", hash = "sha256:8abb2f1d86890a2dfb989f9a77cfcfd3e47c2a354b01111771326f8aa26e0254"},
                {file = "six-1.16.0.tar.gz", hash = "sha256:1e61c37477a1626458e36f7b1d82aa5c9b094fa4802892072e49de9c60c4c926"},
            ]
            "zope.interface" = []
            """
        let result = try PoetryLockParser().parse(Array(text.utf8), file: "poetry.lock")
        #expect(rows(result) == [Row("six", "1.16.0", 2, true, ["six"])])
    }

    @Test func goModSingleLineReplaceWithoutOldVersion() throws {
        let text =
            "module m\n\ngo 1.22.1\n\nrequire example.com/a v1.0.0 // indirect; test\nreplace example.com/a => example.com/b v1.2.0\n"
        let result = try GoModParser().parse(Array(text.utf8), file: "go.mod")
        #expect(rows(result) == [Row("stdlib", "1.22.1", 3, true, []), Row("example.com/b", "v1.2.0", 5, false, [])])
        #expect(result.dependencies[1].notes["replaces"] == "example.com/a@v1.0.0")
    }
}
