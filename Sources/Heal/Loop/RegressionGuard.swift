import Foundation
import Git
import JavaScriptSyntax
import LLM
import PythonSyntax
import SAST

/// Refuses a proposal before it runs when it would make the checks pass by weakening them:
/// it edits, deletes or adds test files, adds skips or expected failures, deletes or empties
/// a function, or leaves a Python, JavaScript or TypeScript file that does not parse. The run-time half (tests that
/// passed before must still pass, no fewer tests run) is `Reflector.judge`.
public enum RegressionGuard {
    /// Why `changes` may not run, or nil when they may.
    /// `oracle` holds the files a traced run of the tests showed they are made of (helpers and
    /// data beside them), refused whatever their names.
    public static func refusal(_ changes: [FileChange], oracle: OracleFiles = OracleFiles()) -> String? {
        if let test = changes.first(where: { isTestFile($0.path) }) {
            return "edits test file \(test.path)"
        }
        if let helper = changes.first(where: { oracle.contains($0.path) }) {
            return "edits \(helper.path), which only the tests load (their own code or data)"
        }
        if let startup = changes.first(where: { isStartupFile($0.path) }) {
            return "changes \(startup.path), which Python runs before the tests"
        }
        for change in changes {
            if let section = changedTestConfiguration(change) {
                return "changes the test run's configuration ([\(section)] in \(change.path))"
            }
        }
        for change in changes {
            let before = change.before ?? ""
            let after = change.after ?? ""
            for marker in skipMarkers where occurrences(of: marker, in: after) > occurrences(of: marker, in: before) {
                return "adds `\(marker)` to \(change.path)"
            }
            if let language = SourceLanguage(fileName: change.path), language != .python {
                guard let after = change.after else { return "deletes \(change.path)" }
                do {
                    _ = try JavaScriptParser.parse(source: after, fileName: change.path)
                } catch {
                    return "\(change.path) does not parse: \(error)"
                }
                continue
            }
            guard change.path.hasSuffix(".py") else { continue }
            guard let after = change.after else { return "deletes \(change.path)" }
            do {
                _ = try PythonParser.parseModule(source: after, fileName: change.path)
            } catch {
                return "\(change.path) does not parse: \(error)"
            }
            let old = FunctionBodies(before)
            let new = FunctionBodies(after)
            for (name, body) in old.bodies where !body.trivial {
                guard let now = new.bodies[name] else { return "deletes function \(name) in \(change.path)" }
                if now.trivial { return "empties function \(name) in \(change.path)" }
            }
        }
        return nil
    }

    /// Tests, fixtures and test configuration: a file in a `test`, `tests`, `testing` or
    /// `__tests__` directory, `test_*.py`, `*_test.py`, `*_tests.py`, `conftest.py`, `pytest.ini`,
    /// `tox.ini`, `noxfile.py`, and other ecosystems' `*_test.go`, `*_spec.rb`, `*.test.*`, `*.spec.*`
    /// (``LLMEdits/isTestPath(_:)``, below Heal, so that the LLM's edits are held to the same list).
    public static func isTestFile(_ path: String) -> Bool {
        LLMEdits.isTestPath(path)
    }

    /// Text that turns a failing test into a skipped or expected one, or changes how pytest runs
    /// and reports them (a plugin it loads, a hook that rewrites outcomes): no fix of the code
    /// under test adds them.
    static let skipMarkers = [
        "pytest.skip", "mark.skip", "mark.xfail", "unittest.skip", "skipTest(", "@skip", "pytest.xfail", "pytest_plugins",
        "addopts", "pytest11", "pytest_runtest_", "pytest_collection_modifyitems", "pytest_report_", "pytest_terminal_summary",
        "pytest_sessionfinish", "pytest_configure",
    ]

    /// Files Python runs at every start (`site`): a change there runs inside every test.
    static func isStartupFile(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map { $0.lowercased() } ?? ""
        return name == "sitecustomize.py" || name == "usercustomize.py" || name.hasSuffix(".pth")
    }

    /// The sections of `pyproject.toml`, `setup.cfg` and `tox.ini` that configure pytest or
    /// register its plugins: a candidate that changes one is refused, whatever else it changes
    /// (a dependency bump may edit the rest of these files).
    static let testConfigurationSections = [
        "tool.pytest.ini_options", "tool.pytest", "tool:pytest", "pytest", "project.entry-points.pytest11",
        "options.entry_points",
    ]

    /// The first pytest section `change` alters, if any.
    static func changedTestConfiguration(_ change: FileChange) -> String? {
        let name = change.path.split(separator: "/").last.map { $0.lowercased() } ?? ""
        guard ["pyproject.toml", "setup.cfg", "tox.ini"].contains(name) else { return nil }
        let before = sections(of: change.before ?? "")
        let after = sections(of: change.after ?? "")
        return testConfigurationSections.first { before[$0] != after[$0] }
    }

    /// Each `[header]` section's lines, by header (quotes removed; a file in INI or TOML form).
    static func sections(of text: String) -> [String: [String]] {
        var result: [String: [String]] = [:]
        var current = ""
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("["), line.hasSuffix("]"), !line.hasPrefix("[[") {
                current = line.dropFirst().dropLast().replacingOccurrences(of: "\"", with: "").trimmingCharacters(in: .whitespaces)
                result[current, default: []] = result[current] ?? []
                continue
            }
            guard !line.isEmpty, !line.hasPrefix("#"), !line.hasPrefix(";") else { continue }
            result[current, default: []].append(line)
        }
        return result
    }

    private static func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }
}

/// Function bodies by qualified name, from indentation (the candidate already parses).
struct FunctionBodies {
    struct Body {
        var statements: [String] = []
        /// `pass`, `...`, a bare or `None` return, `raise NotImplementedError`, or only a docstring.
        var trivial: Bool {
            let real = statements.filter { !($0.hasPrefix("\"") || $0.hasPrefix("'")) }
            return real.allSatisfy {
                ["pass", "...", "return", "return None"].contains($0) || $0.hasPrefix("raise NotImplementedError")
            }
        }
    }

    var bodies: [String: Body] = [:]

    init(_ source: String) {
        var stack: [(indent: Int, name: String)] = []
        for raw in source.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = String(raw)
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty, !text.hasPrefix("#") else { continue }
            let indent = line.prefix { $0 == " " || $0 == "\t" }.count
            while let top = stack.last, indent <= top.indent { stack.removeLast() }
            if let owner = stack.last, bodies[owner.name] != nil {
                bodies[owner.name]!.statements.append(text)
            }
            for keyword in ["def ", "async def ", "class "] where text.hasPrefix(keyword) {
                let rest = text.dropFirst(keyword.count)
                let name = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                let qualified = (stack.map(\.name) + [name]).joined(separator: ".")
                stack.append((indent, qualified))
                if keyword != "class " { bodies[qualified] = Body() }
            }
        }
    }
}
