import Documents
import Foundation
import Support

/// The files a project itself says are tests, beyond the names every project shares
/// (`LLM/TestRunFiles`): pytest's `python_files` and `testpaths` (in `pytest.ini`, `.pytest.ini`,
/// `tox.ini`, `setup.cfg` or `pyproject.toml`), jest's `testMatch` and mocha's `spec` (in
/// `package.json` or `.mocharc.json`). Read once from the snapshot, before any candidate: a
/// candidate cannot move them. A fix may not edit or add a file they declare.
public struct DeclaredTests: Sendable {
    /// A pattern and the setting it came from (`python_files = check_*.py`).
    struct Pattern: Sendable {
        let glob: Glob
        let setting: String
    }

    /// The patterns, in the policy dialect (a name alone matches at any depth).
    let patterns: [Pattern]

    /// The most patterns read, whatever the configuration lists.
    static let maxPatterns = 100

    /// None declared.
    public init() { patterns = [] }

    /// The patterns `workspace`'s snapshot declares.
    public init(_ workspace: HealWorkspace) {
        self.init(reading: workspace.read)
    }

    /// The patterns the configuration files `read` returns declare (nil: no such file).
    init(reading read: (String) -> String?) {
        var found: [(String, String)] = []
        for (file, section) in [("pytest.ini", "pytest"), (".pytest.ini", "pytest"), ("tox.ini", "pytest"), ("setup.cfg", "tool:pytest")] {
            guard let text = read(file) else { continue }
            for key in ["python_files", "testpaths"] {
                for value in Self.iniValues(key, section: section, in: text) { found.append((value, "\(key) in \(file)")) }
            }
        }
        if let text = read("pyproject.toml"), let root = try? TOML.parse(Array(text.utf8), file: "pyproject.toml") {
            for table in [root["tool"]?["pytest"]?["ini_options"], root["tool"]?["pytest"]] {
                for key in ["python_files", "testpaths"] {
                    for value in Self.strings(table?[key]) { found.append((value, "\(key) in pyproject.toml")) }
                }
            }
        }
        if let text = read("package.json"), let root = try? JSON.parse(Array(text.utf8), file: "package.json") {
            for value in Self.strings(root["jest"]?["testMatch"]) { found.append((value, "jest.testMatch in package.json")) }
            for value in Self.strings(root["mocha"]?["spec"]) { found.append((value, "mocha.spec in package.json")) }
        }
        if let text = read(".mocharc.json"), let root = try? JSON.parse(Array(text.utf8), file: ".mocharc.json", dialect: .jsonc) {
            for value in Self.strings(root["spec"]) { found.append((value, "spec in .mocharc.json")) }
        }
        patterns = found.prefix(Self.maxPatterns).compactMap { value, setting in
            var pattern = value.replacingOccurrences(of: "<rootDir>/", with: "")
            // A pytest `testpaths` entry is a directory: everything below it.
            if setting.hasPrefix("testpaths"), !pattern.contains("*"), !pattern.hasSuffix("/") { pattern += "/" }
            guard let glob = try? Glob.policy(pattern) else { return nil }
            return Pattern(glob: glob, setting: "\(setting): \(value)")
        }
    }

    /// The setting that declares `path` a test, nil when none does.
    public func declaring(_ path: String) -> String? {
        patterns.first { $0.glob.matches(path) }?.setting
    }

    /// The whitespace-separated values of `key` in INI section `section` (continuation lines
    /// included), as pytest reads `python_files` and `testpaths`.
    static func iniValues(_ key: String, section: String, in text: String) -> [String] {
        var values: [String] = []
        var inSection = false
        var inKey = false
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("["), line.hasSuffix("]") {
                inSection = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces) == section
                inKey = false
                continue
            }
            guard inSection, !line.hasPrefix("#"), !line.hasPrefix(";") else { continue }
            if raw.first?.isWhitespace == true, inKey {
                values += line.split(whereSeparator: \.isWhitespace).map(String.init)
                continue
            }
            inKey = false
            let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard parts.count == 2, parts[0] == key else { continue }
            inKey = true
            values += parts[1].split(whereSeparator: \.isWhitespace).map(String.init)
        }
        return values
    }

    /// A string, or an array's strings.
    static func strings(_ node: DocumentNode?) -> [String] {
        guard let node else { return [] }
        if let text = node.string { return text.split(whereSeparator: \.isWhitespace).map(String.init) }
        return node.elements.compactMap(\.string)
    }
}
