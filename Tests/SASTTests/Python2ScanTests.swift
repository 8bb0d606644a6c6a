import Findings
import Foundation
import Testing

@testable import SAST

/// Python 2 files are analysed with the Python 2 dialect: the shipped rules find in them what they
/// find in the same code spelled in Python 3, and the result says the dialect was used.
@Suite("Python 2 files")
struct Python2ScanTests {
    /// The shipped SQL injection taint rule.
    static let engine = Result {
        SASTEngine(
            rules: try RuleSet(
                rules: try RuleSet.load(directories: [RuleFilesTests.rulesDirectory]).rules.filter {
                    $0.id == "python.taint-sql-injection"
                }))
    }

    static let handler = """
        import sqlite3
        import tornado.web

        class LoginHandler(tornado.web.RequestHandler):
            def post(self):
                print "POST ", self.request.uri, "\\nBODY ", self.request.body
                user = self.get_argument("user")
                conn = sqlite3.connect("users.db")
                cur = conn.cursor()
                try:
                    cur.execute("SELECT * FROM Users WHERE User ='" + user + "'")
                except sqlite3.Error, e:
                    print >>sys.stderr, "error", `e`
                    raise ValueError, "bad query"

        """

    @Test("a Tornado handler in Python 2 whose argument is built into SQL is found, with a notice")
    func tornadoSQLInjection() throws {
        let result = try Self.engine.get().scan(file: "server.py", source: Self.handler)
        let lines = result.findings.filter { $0.ruleId == "python.taint-sql-injection" }.compactMap(\.location.startLine)
        #expect(lines == [11])
        let notice = try #require(result.parseNotice)
        #expect(notice.kind == .python2Dialect)
        // The lexer meets the backticks before the parser meets the print statement.
        #expect(notice.message.hasPrefix("server.py:13:42: invalid syntax: backticks are Python 2"))
        #expect(notice.message.hasSuffix("(analysed with the Python 2 dialect)"))
        #expect(result.parseError == nil)
    }

    @Test("the same handler in Python 3 gives the same finding and no notice")
    func python3Twin() throws {
        let python3 = Self.handler
            .replacingOccurrences(of: "print \"POST \", self.request.uri, \"\\nBODY \", self.request.body", with: "print(self.request.uri)")
            .replacingOccurrences(of: "except sqlite3.Error, e:", with: "except sqlite3.Error as e:")
            .replacingOccurrences(of: "print >>sys.stderr, \"error\", `e`", with: "print(\"error\", repr(e), file=sys.stderr)")
            .replacingOccurrences(of: "raise ValueError, \"bad query\"", with: "raise ValueError(\"bad query\")")
        let result = try Self.engine.get().scan(file: "server.py", source: python3)
        #expect(result.findings.filter { $0.ruleId == "python.taint-sql-injection" }.compactMap(\.location.startLine) == [11])
        #expect(result.parseNotice == nil)
    }

    /// Issue 55: PEP 758 (Python 3.14) `except A, B:` was read as Python 2 and the file skipped.
    @Test("a Python 3.14 handler with `except A, B:` is analysed as Python 3")
    func pep758() throws {
        let source = """
            import sqlite3
            from flask import request
            import jwt

            def view():
                try:
                    token = jwt.decode(request.args["t"], "k", algorithms=["HS256"])
                except jwt.InvalidTokenError, ValueError:
                    token = None
                return sqlite3.connect("db").execute("SELECT * FROM t WHERE id = " + request.args["q"])
            """
        let result = try Self.engine.get().scan(file: "app.py", source: source)
        #expect(result.parseNotice == nil && result.parseError == nil)
        #expect(
            result.findings.contains { $0.ruleId == "python.taint-sql-injection" && $0.location.startLine == 10 },
            "\(result.findings.map(\.ruleId))")
    }

    @Test("a file neither grammar reads is skipped with the Python 3 error")
    func bothFail() throws {
        let result = try Self.engine.get().scan(file: "bad.py", source: "print 'a'\ndef f(:)\n")
        #expect(result.findings.isEmpty)
        let notice = try #require(result.parseError)
        #expect(notice.hasPrefix("bad.py:1:1: Missing parentheses"))
        #expect(notice.hasSuffix("(file skipped)"))
    }
}
