import Foundation
import Git
import Languages
import LLM
import SyntaxTree
import PythonSyntax
import SAST
import Support

/// Refuses a proposal before it runs when it would make the checks pass by weakening them:
/// it edits, deletes or adds test files or anything that changes how the tests run
/// (``TestRunFiles``, one table with the reasons), adds skips or expected failures, deletes or empties
/// a function, or leaves a Python, JavaScript or TypeScript file that does not parse. The run-time half (tests that
/// passed before must still pass, no fewer tests run) is `Reflector.judge`.
public enum RegressionGuard {
    /// Why `changes` may not run, or nil when they may.
    /// `oracle` holds the files a traced run of the tests showed they are made of (helpers and
    /// data beside them), refused whatever their names; `declared` the files the project's own
    /// configuration calls tests.
    public static func refusal(
        _ changes: [FileChange], oracle: OracleFiles = OracleFiles(), declared: DeclaredTests = DeclaredTests()
    ) -> String? {
        if let test = changes.first(where: { isTestFile($0.path) }) {
            return "edits test file \(test.path)"
        }
        for change in changes {
            if let setting = declared.declaring(change.path) {
                return "edits test file \(change.path) (the project's \(setting))"
            }
        }
        if let helper = changes.first(where: { oracle.contains($0.path) }) {
            return "edits \(helper.path), which only the tests load (their own code or data)"
        }
        for change in changes {
            if let reason = TestRunFiles.reason(forPath: change.path) {
                return "changes \(change.path), which \(reason)"
            }
        }
        for change in changes {
            if let changed = TestRunFiles.changedSetting(change) {
                return "changes the test run's configuration (\(changed.setting), which \(changed.reason))"
            }
        }
        for change in changes {
            let before = change.before ?? ""
            let after = change.after ?? ""
            for marker in TestRunFiles.markers where occurrences(of: marker, in: after) > occurrences(of: marker, in: before) {
                return "adds `\(marker)` to \(change.path)"
            }
            // Another registered language's file must still be read by its front end.
            if let language = SourceLanguage(fileName: change.path), language != .python, let reader = language.language {
                guard let after = change.after else { return "deletes \(change.path)" }
                do {
                    let path = change.path
                    _ = try LargeStack.run { try reader.read(Array(after.utf8), file: path) }
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

    /// Tests and their fixtures (``TestRunFiles/isTest(_:)``): a file in a `test`, `tests`,
    /// `testing`, `__tests__` or `__mocks__` directory, `test_*.py`, `*_test.py`, `conftest.py`,
    /// and other ecosystems' `*_test.go`, `*_spec.rb`, `*.test.*`, `*.spec.*`.
    public static func isTestFile(_ path: String) -> Bool {
        TestRunFiles.isTest(path)
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
