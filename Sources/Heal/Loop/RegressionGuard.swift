import Foundation
import Git
import PythonSyntax

/// Refuses a proposal before it runs when it would make the checks pass by weakening them:
/// it edits, deletes or adds test files, adds skips or expected failures, deletes or empties
/// a function, or leaves a Python file that does not parse. The run-time half (tests that
/// passed before must still pass, no fewer tests run) is `Reflector.judge`.
public enum RegressionGuard {
    /// Why `changes` may not run, or nil when they may.
    public static func refusal(_ changes: [FileChange]) -> String? {
        if let test = changes.first(where: { isTestFile($0.path) }) {
            return "edits test file \(test.path)"
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

    /// Tests, fixtures and test configuration: `tests/`, `test_*.py`, `*_test.py`, `conftest.py`,
    /// `pytest.ini`, `tox.ini`.
    public static func isTestFile(_ path: String) -> Bool {
        let parts = path.split(separator: "/").map(String.init)
        let name = parts.last ?? path
        if parts.dropLast().contains(where: { $0 == "tests" || $0 == "test" || $0 == "testing" }) { return true }
        if name.hasPrefix("test_") || name.hasSuffix("_test.py") || name == "conftest.py" { return true }
        return name == "pytest.ini" || name == "tox.ini"
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
