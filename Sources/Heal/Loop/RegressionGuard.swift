import Foundation
import Git
import PythonSyntax

/// Refuses a proposal before it runs when it would make the checks pass by weakening them:
/// it edits, deletes or adds test files, adds skips or expected failures, deletes or empties
/// a function, or leaves a Python file that does not parse. The run-time half (tests that
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
        for change in changes {
            let before = change.before ?? ""
            let after = change.after ?? ""
            for marker in skipMarkers where occurrences(of: marker, in: after) > occurrences(of: marker, in: before) {
                return "adds `\(marker)` to \(change.path)"
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
    /// `tox.ini`, `noxfile.py`, and other ecosystems' `*_test.go`, `*_spec.rb`, `*.test.*`, `*.spec.*`.
    public static func isTestFile(_ path: String) -> Bool {
        let parts = path.lowercased().split(separator: "/").map(String.init)
        guard let name = parts.last else { return false }
        let testDirectories: Set<String> = ["test", "tests", "testing", "__tests__"]
        if parts.dropLast().contains(where: testDirectories.contains) { return true }
        if ["conftest.py", "pytest.ini", "tox.ini", "noxfile.py"].contains(name) { return true }
        if name.hasPrefix("test_") && name.hasSuffix(".py") { return true }
        let suffixes = ["_test.py", "_tests.py", "_test.go", "_test.rb", "_spec.rb"]
        if suffixes.contains(where: name.hasSuffix) { return true }
        return name.contains(".test.") || name.contains(".spec.")
    }

    /// Text that turns a failing test into a skipped or expected one.
    static let skipMarkers = ["pytest.skip", "mark.skip", "mark.xfail", "unittest.skip", "skipTest(", "@skip", "pytest.xfail"]

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
