import Foundation
import ScanCore
import Testing

@testable import Scan

/// Issue 75: pyproject.toml is read for dependencies, but one holding only tools' settings gives
/// the dependency scan nothing to check, so it alone never makes a scan need advisory data.
@Suite struct DependencyScannerAppliesTests {
    static func applies(_ files: [String: String]) throws -> Bool {
        let root = try SecretsCoverageTests.tree(files)
        defer { try? FileManager.default.removeItem(atPath: root) }
        return DependencyScanner().applies(to: ScanTarget(root: root, files: files.keys.sorted()))
    }

    @Test(
        arguments: [
            ("[tool.ruff]\nline-length = 100\n", false),
            ("[project]\nname = \"app\"\nversion = \"1.0\"\n", false),
            ("[project]\nname = \"app\"\ndependencies = [\"flask>=2\"]\n", true),
            ("[dependency-groups]\ntest = [\"pytest==8.0.0\"]\n", true),
            ("[tool.poetry.dependencies]\npython = \"^3.9\"\n", false),
            ("[tool.poetry.dependencies]\npython = \"^3.9\"\nrequests = \"2.19.0\"\n", true),
            // Malformed: the scan reports it, so the scanner runs.
            ("[project\n", true),
        ])
    func aPyprojectAppliesWhenItDeclaresDependencies(text: String, expected: Bool) throws {
        #expect(try Self.applies(["pyproject.toml": text, "app.py": "x = 1\n"]) == expected)
    }

    @Test func aLockfileAlwaysApplies() throws {
        #expect(try Self.applies(["pyproject.toml": "[tool.ruff]\n", "requirements.txt": "\n"]))
    }
}
