import Foundation
import Documents
import Git

/// What a candidate fix may not touch: every file that is a test or changes how the tests run,
/// in one table with the reason. The regression guard (Heal) refuses a proposal that touches one
/// and the LLM's edits mark a reply that does (``LLMEdits/touchesTests(_:)``), so the two never
/// disagree. A verified fix is one the project's own tests, run the project's own way, accept:
/// a change to what they are, what runs before them, which module an import finds or how their
/// outcome is reported decides the verdict instead of the code under test.
public enum TestRunFiles {
    /// How a whole file is recognised, by its path (compared in lower case).
    enum Pattern: Sendable {
        /// A file anywhere below a directory of this name.
        case directory(String)
        /// A file of exactly this name.
        case name(String)
        /// A name starting with this text.
        case prefix(String)
        /// A name ending with this text.
        case suffix(String)
        /// A name starting with the first text and ending with the second.
        case prefixSuffix(String, String)
        /// A name containing this text.
        case contains(String)

        func matches(name: String, directories: ArraySlice<String>) -> Bool {
            switch self {
            case .directory(let directory): return directories.contains(directory)
            case .name(let exact): return name == exact
            case .prefix(let start): return name.hasPrefix(start)
            case .suffix(let end): return name.hasSuffix(end)
            case .prefixSuffix(let start, let end): return name.hasPrefix(start) && name.hasSuffix(end)
            case .contains(let part): return name.contains(part)
            }
        }
    }

    /// One entry of the table: which files, whether they are tests themselves, and why (read
    /// after "which": "changes .npmrc, which configures npm…").
    struct Entry: Sendable {
        let patterns: [Pattern]
        /// A test or its fixtures ("edits test file"), rather than what configures their run.
        let isTest: Bool
        let reason: String
    }

    /// The whole files, first match wins.
    static let files: [Entry] = [
        Entry(
            patterns: ["test", "tests", "testing", "__tests__", "__mocks__"].map(Pattern.directory), isTest: true,
            reason: "a test directory"),
        Entry(
            patterns: [
                .prefixSuffix("test_", ".py"), .suffix("_test.py"), .suffix("_tests.py"), .suffix("_test.go"), .suffix("_test.rb"),
                .suffix("_spec.rb"), .contains(".test."), .contains(".spec."),
            ], isTest: true, reason: "a test"),
        Entry(patterns: [.name("conftest.py")], isTest: true, reason: "pytest loads it before the tests (fixtures, hooks, plugins)"),
        Entry(
            patterns: [.name("pytest.ini"), .name(".pytest.ini")], isTest: false,
            reason: "configures pytest (options, plugins, `pythonpath`, `rootdir`)"),
        Entry(patterns: [.name("tox.ini")], isTest: false, reason: "configures tox and pytest"),
        Entry(patterns: [.name("noxfile.py")], isTest: false, reason: "defines how nox runs the tests"),
        Entry(
            patterns: [.name("sitecustomize.py"), .name("usercustomize.py"), .suffix(".pth")], isTest: false,
            reason: "Python runs before the tests, at every start"),
        Entry(
            patterns: [.name(".npmrc")], isTest: false,
            reason: "configures npm, which runs the tests (`node-options`, `script-shell`)"),
        Entry(
            patterns: [.name(".yarnrc"), .name(".yarnrc.yml"), .name(".pnpmfile.cjs"), .name("bunfig.toml")], isTest: false,
            reason: "configures the package manager that runs the tests"),
        Entry(
            patterns: [
                .prefix("jest.config."), .prefix("jest.setup."), .prefix("vitest.config."), .prefix("vitest.workspace."),
                .prefix("vite.config."), .prefix(".mocharc"), .prefix("ava.config."), .prefix("karma.conf."),
                .prefix("playwright.config."), .prefix("cypress.config."), .prefix(".c8rc"), .prefix(".nycrc"),
            ], isTest: false, reason: "configures the JavaScript test runner"),
        Entry(
            patterns: [.prefix("babel.config."), .prefix(".babelrc")], isTest: false,
            reason: "transforms the tests' code before they run"),
    ]

    /// Settings inside files a fix may otherwise edit (a dependency bump changes the rest of
    /// them): the file, the key path whose value may not change, and why.
    static let settings: [(file: String, path: [String], reason: String)] = [
        ("pyproject.toml", ["tool", "pytest"], "configures pytest (options, plugins, `pythonpath`, `rootdir`)"),
        ("pyproject.toml", ["project", "entry-points", "pytest11"], "registers pytest plugins"),
        ("pyproject.toml", ["tool", "tox"], "configures tox, which runs the tests"),
        ("pyproject.toml", ["tool", "hatch", "envs"], "defines how hatch runs the tests"),
        ("package.json", ["scripts"], "npm runs (`test`, `pretest`, `posttest`)"),
        ("package.json", ["config"], "npm passes to the scripts"),
        ("package.json", ["jest"], "configures jest"),
        ("package.json", ["mocha"], "configures mocha"),
        ("package.json", ["ava"], "configures ava"),
        ("package.json", ["vitest"], "configures vitest"),
        ("package.json", ["c8"], "configures the coverage wrapper the tests run under"),
        ("package.json", ["nyc"], "configures the coverage wrapper the tests run under"),
        ("package.json", ["babel"], "transforms the tests' code before they run"),
        ("package.json", ["main"], "decides which file an import of the package loads"),
        ("package.json", ["exports"], "decides which file an import of the package loads"),
        ("package.json", ["imports"], "decides which file a `#` import loads"),
        ("package.json", ["type"], "decides how Node loads the project's files"),
    ]

    /// The INI sections of `setup.cfg` that configure pytest or register its plugins.
    static let iniSections: [(file: String, section: String, reason: String)] = [
        ("setup.cfg", "tool:pytest", "configures pytest (options, plugins, `pythonpath`, `rootdir`)"),
        ("setup.cfg", "options.entry_points", "registers pytest plugins"),
    ]

    /// Text whose appearance in a changed file turns a failing test into a skipped or expected
    /// one, or changes how the tests run and report (a plugin, a hook that rewrites outcomes, the
    /// variables through which the verifier asks for a report): no fix of the code under test
    /// adds it.
    public static let markers = [
        "pytest.skip", "mark.skip", "mark.xfail", "unittest.skip", "skipTest(", "@skip", "pytest.xfail", "pytest_plugins",
        "addopts", "pytest11", "pytest_runtest_", "pytest_collection_modifyitems", "pytest_report_", "pytest_terminal_summary",
        "pytest_sessionfinish", "pytest_configure", "PYTEST_ADDOPTS", "NODE_OPTIONS", "node-options", "node_options",
        "--test-reporter", "test.skip(", "it.skip(", "describe.skip(", "test.todo(", "it.todo(", "xit(", "xdescribe(",
    ]

    /// Whether `path` is a test or lies in a test directory (a proposal touching it "edits test file").
    public static func isTest(_ path: String) -> Bool {
        entry(for: path)?.isTest == true
    }

    /// Why a change to the whole file `path` is refused; nil when it is not in the table.
    public static func reason(forPath path: String) -> String? {
        entry(for: path)?.reason
    }

    /// The setting `change` alters in a file a fix may otherwise edit, as `[tool.pytest.ini_options]
    /// in pyproject.toml`, with why; nil when it alters none. A file that no longer parses alters
    /// them all.
    public static func changedSetting(_ change: FileChange) -> (setting: String, reason: String)? {
        let name = change.path.split(separator: "/").last.map { $0.lowercased() } ?? ""
        for (file, section, reason) in iniSections where file == name {
            if iniSection(section, of: change.before) != iniSection(section, of: change.after) {
                return ("[\(section)] in \(change.path)", reason)
            }
        }
        let watched = settings.filter { $0.file == name }
        guard !watched.isEmpty else { return nil }
        let before = document(change.before, name: name)
        let after = document(change.after, name: name)
        for (_, path, reason) in watched {
            guard let before, let after else {
                // Unreadable before and after: compare the text; unreadable after only: refused.
                if before == nil, after == nil, change.before == change.after { continue }
                return ("\(change.path) as a whole (it does not parse)", reason)
            }
            if let differs = difference(before, after, under: path) {
                return ("[\(differs.joined(separator: "."))] in \(change.path)", reason)
            }
        }
        return nil
    }

    /// The first table entry `path` matches.
    static func entry(for path: String) -> Entry? {
        let parts = path.lowercased().split(separator: "/").map(String.init)
        guard let name = parts.last else { return nil }
        return files.first { entry in entry.patterns.contains { $0.matches(name: name, directories: parts.dropLast()) } }
    }

    /// `text` read as TOML or JSON (by the file's name); an absent file is an empty document,
    /// nil when it does not parse.
    static func document(_ text: String?, name: String) -> DocumentNode? {
        guard let text else { return DocumentNode(.object([]), line: 1, column: 1) }
        let bytes = Array(text.utf8)
        if name.hasSuffix(".json") { return try? JSON.parse(bytes, file: name) }
        return try? TOML.parse(bytes, file: name)
    }

    /// The key path, from `path` down to the first member that differs, where `before` and
    /// `after` disagree below `path`; nil when they agree (positions aside).
    static func difference(_ before: DocumentNode, _ after: DocumentNode, under path: [String]) -> [String]? {
        var old: DocumentNode? = before
        var new: DocumentNode? = after
        for key in path {
            old = old?[key]
            new = new?[key]
        }
        guard canonical(old) != canonical(new) else { return nil }
        if let old, let new, !old.members.isEmpty, !new.members.isEmpty {
            let keys = old.members.map(\.key) + new.members.map(\.key)
            if let key = keys.first(where: { canonical(old[$0]) != canonical(new[$0]) }) { return path + [key] }
        }
        return path
    }

    /// A node's value without positions, so that a moved line is no change.
    static func canonical(_ node: DocumentNode?) -> String {
        guard let node else { return "-" }
        switch node.value {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .integer(let value): return "i\(value)"
        case .double(let value): return "d\(value)"
        case .string(let text): return "s\(text.utf8.count):\(text)"
        case .array(let elements): return "[" + elements.map { canonical($0) }.joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { "\($0.key.utf8.count):\($0.key)=" + canonical($0.value) }.joined(separator: ",") + "}"
        }
    }

    /// The lines of INI section `name` in `text` (case of the header kept), nil when absent.
    static func iniSection(_ name: String, of text: String?) -> [String]? {
        guard let text else { return nil }
        var lines: [String]?
        var inside = false
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("["), line.hasSuffix("]") {
                inside = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces) == name
                if inside, lines == nil { lines = [] }
                continue
            }
            guard inside, !line.isEmpty, !line.hasPrefix("#"), !line.hasPrefix(";") else { continue }
            lines?.append(line)
        }
        return lines
    }
}
