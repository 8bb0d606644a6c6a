import Foundation
import Support
import Testing

@testable import SCA

/// One dependency reduced to what the tables compare.
struct Row: Equatable, CustomStringConvertible {
    let name: String
    let version: String?
    let line: Int
    let isDirect: Bool
    let path: [String]

    init(_ name: String, _ version: String?, _ line: Int, _ isDirect: Bool, _ path: [String]) {
        self.name = name
        self.version = version
        self.line = line
        self.isDirect = isDirect
        self.path = path
    }

    init(_ dependency: Dependency) {
        self.init(dependency.name, dependency.version, dependency.line, dependency.isDirect, dependency.path)
    }

    var description: String { "\(name) \(version ?? "nil") @\(line) direct=\(isDirect) \(path)" }
}

func rows(_ result: LockfileResult) -> [Row] { result.dependencies.map(Row.init) }

/// The fixture directory, found from this file so tests run from any working directory.
func fixtureDirectory(filePath: String = #filePath) -> String {
    URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/lockfiles").path
}

func fixture(_ relative: String) throws -> [UInt8] {
    let path = fixtureDirectory() + "/" + relative
    guard let data = FileManager.default.contents(atPath: path) else {
        throw SentinelError(.io, "\(path): fixture missing")
    }
    return [UInt8](data)
}

/// Every fixture with the parser for it, shared by the fuzz test and the smoke tests.
let allFixtures: [(String, any LockfileParser)] = [
    ("requirements/requirements.txt", RequirementsParser(loader: { _ in [] })),
    ("pipenv/Pipfile.lock", PipfileLockParser()),
    ("requirements/requirements-compiled.txt", RequirementsParser(loader: { _ in [] })),
    ("poetry/poetry.lock", PoetryLockParser()),
    ("uv/uv.lock", UVLockParser()),
    ("pdm/pdm.lock", PDMLockParser()),
    ("pyproject/pyproject.toml", PyprojectParser()),
    ("pyproject/poetry/pyproject.toml", PyprojectParser()),
    ("cargo/Cargo-v1.lock", CargoLockParser()),
    ("cargo/Cargo-v3.lock", CargoLockParser()),
    ("cargo/Cargo-v4.lock", CargoLockParser()),
    ("go/go.mod", GoModParser()),
    ("go/go.sum", GoSumParser()),
    ("npm/package-lock-v1.json", PackageLockParser()),
    ("bun/bun.lock", BunLockParser()),
    ("npm/package-lock-v2.json", PackageLockParser()),
    ("npm/package-lock-v3.json", PackageLockParser()),
    ("yarn/yarn-v1.lock", YarnLockParser()),
    ("yarn/yarn-berry.lock", YarnLockParser()),
    ("pnpm/pnpm-lock-v5.yaml", PnpmLockParser()),
    ("pnpm/pnpm-lock-v6.yaml", PnpmLockParser()),
    ("pnpm/pnpm-lock-v9.yaml", PnpmLockParser()),
    ("ruby/Gemfile.lock", GemfileLockParser()),
    ("composer/composer.lock", ComposerLockParser()),
    ("swiftpm/Package-v1.resolved", PackageResolvedParser()),
    ("swiftpm/Package-v2.resolved", PackageResolvedParser()),
    ("swiftpm/Package-v3.resolved", PackageResolvedParser()),
]

@Suite struct LockfileSupportTests {
    @Test(arguments: [
        ("requirements*.txt", "requirements.txt", true),
        ("requirements*.txt", "requirements-dev.txt", true),
        ("requirements*.txt", "requirements.txt.bak", false),
        ("*-requirements.txt", "dev-requirements.txt", true),
        ("*-requirements.txt", "requirements.txt", false),
    ])
    func globMatchesNames(pattern: String, name: String, expected: Bool) {
        #expect(Glob.matches(pattern: pattern, name: name) == expected)
    }

    @Test func everyFixtureParses() throws {
        for (path, parser) in allFixtures {
            let result = try parser.parse(try fixture(path), file: path)
            #expect(!result.dependencies.isEmpty, "\(path) yielded nothing")
            #expect(
                result.dependencies.allSatisfy { $0.line > 0 && $0.file == path }, "\(path) has an entry without a line"
            )
        }
    }
}

/// Runs `body` and returns the message of the `SentinelError` it throws, or nil.
func thrownMessage(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch let error as SentinelError {
        #expect(error.code == .invalidInput)
        return error.message
    } catch {
        return "unexpected error \(error)"
    }
}

/// Lockfile lines: any line ending, the BOM dropped, no empty line after a final terminator.
@Suite struct TextLinesTests {
    @Test(arguments: [
        ("", [String]()), ("\u{FEFF}", []), ("\n", [""]), ("a\n", ["a"]), ("a", ["a"]),
        ("\u{FEFF}a\r\nb\rc\n\nd", ["a", "b", "c", "", "d"]), ("a\r\n\r\n", ["a", ""]),
    ])
    func linesAndNumbers(source: String, expected: [String]) {
        let lines = TextLines(Array(source.utf8)).lines
        #expect(lines.map(\.text) == expected)
        #expect(lines.map(\.number) == Array(0..<expected.count).map { $0 + 1 })
    }
}
