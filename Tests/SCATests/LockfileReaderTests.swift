import Testing

@testable import SCA

/// The position-aware readers under the JSON, TOML and YAML parsers, and the shared edges:
/// BOM, CRLF, empty files, deduplication.
@Suite struct LockfileReaderTests {
    @Test func jsonLinesStringsAndEscapes() throws {
        let text =
            "\u{FEFF}{\r\n  \"a\": \"x\\u00e9\\ud83d\\ude00\\n\",\r\n  \"b\": [1, -2.5e3, true, null],\r\n  \"c\": {}\r\n}"
        let root = try PositionedJSON.parse(Array(text.utf8), file: "f.json")
        #expect(root.members.map(\.line) == [2, 3, 4])
        #expect(root["a"]?.string == "xé😀\n")
        #expect(root["b"]?.elements.compactMap(\.scalarText) == ["1", "-2.5e3", "true"])
    }

    @Test func jsonDepthIsBounded() {
        let deep = String(repeating: "[", count: 10_000)
        #expect(
            thrownMessage { _ = try PositionedJSON.parse(Array(deep.utf8), file: "f.json") }
                == "f.json:1: JSON nested too deeply")
    }

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
        let root = try PositionedTOML.parse(Array(text.utf8), file: "t.toml")
        #expect(root.string("title") == "literal \\ kept")
        #expect(root.string("multi") == "first second")
        #expect(root.string("raw") == "a 'b' c")
        #expect(root.table("quoted.key")?.array("inner").count == 2)
        #expect(root["date"]?.text == "1979-05-27 07:32:00Z")
        let packages = root.tables("package")
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
            (0, nil), (1, "Pipfile.lock:1: empty JSON document"), (2, nil), (3, nil), (4, nil), (5, nil), (6, nil),
            (7, nil),
            (8, nil), (9, nil), (10, "package-lock.json:1: empty JSON document"), (13, nil), (14, nil),
            (15, "pnpm-lock.yaml:1: empty YAML document"), (18, nil), (19, "composer.lock:1: empty JSON document"),
            (20, "Package.resolved:1: empty JSON document"),
        ] as [(Int, String?)])
    func emptyFiles(index: Int, message: String?) {
        let (path, parser) = allFixtures[index]
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
