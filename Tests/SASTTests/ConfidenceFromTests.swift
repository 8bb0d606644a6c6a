import Findings
import Testing

@testable import SAST

/// `confidence-from`: a low-confidence audit finding is raised to medium by where its value comes
/// from, each origin class with a twin that stays low.
@Suite("Confidence from evidence")
struct ConfidenceFromTests {
    static let rule = """
        confidence: low
        confidence-from:
          metavariable: $X
          origins: [parameter, request, file, socket]
          unless-identifiers: [quote_name, compiler]
        pattern-either:
          - pattern: '"..." + $X'
          - pattern: '"...".format(...)'

        """

    /// The confidence of each finding, in line order.
    static func confidences(_ source: String) throws -> [Confidence] {
        try engine(rule: rule).scan(file: "t.py", source: source).findings.map(\.confidence)
    }

    @Test("a public function's parameter, and an item of one, is medium; a constant is low")
    func parameter() throws {
        #expect(try Self.confidences("def f(cur, name):\n    cur.execute('SELECT ' + name)\n") == [.medium])
        #expect(try Self.confidences("def f(cur, h):\n    v = h.params['id'][0]\n    cur.execute('SELECT ' + v)\n") == [.medium])
        #expect(try Self.confidences("def f(cur, name):\n    cur.execute('SELECT {}'.format(name))\n") == [.medium])
        #expect(try Self.confidences("def f(cur):\n    name = 'users'\n    cur.execute('SELECT ' + name)\n") == [.low])
        #expect(try Self.confidences("def f(cur, name):\n    cur.execute('SELECT ' + name.strip())\n") == [.medium])
        let handle = "def f(cur, conn):\n    row = conn.cursor().fetchone()\n    cur.execute('SELECT ' + row[0])\n"
        #expect(try Self.confidences(handle) == [.low])
        #expect(try Self.confidences("def f(cur):\n    cur.execute('SELECT {}'.format(3))\n") == [.low])
    }

    @Test("self, cls and a private helper's parameters are not evidence")
    func notPublicParameters() throws {
        #expect(try Self.confidences("class A:\n    def f(self, cur):\n        cur.execute('SELECT ' + self.t)\n") == [.low])
        #expect(try Self.confidences("def _f(cur, name):\n    cur.execute('SELECT ' + name)\n") == [.low])
        #expect(try Self.confidences("class A:\n    def __init__(self, cur, n):\n        cur.execute('SELECT ' + n)\n") == [.medium])
    }

    @Test("a request object is medium; another object is low")
    func request() throws {
        #expect(try Self.confidences("from flask import request\ndef f():\n    cur.execute('SELECT ' + request.args['q'])\n") == [.medium])
        #expect(try Self.confidences("def f():\n    cur.execute('SELECT ' + settings.TABLE)\n") == [.low])
    }

    @Test("data read from a file or received from a socket is medium")
    func fileAndSocket() throws {
        #expect(try Self.confidences("def f():\n    q = open('q.txt').read()\n    cur.execute('SELECT ' + q)\n") == [.medium])
        #expect(try Self.confidences("def f():\n    q = sock.recv(64)\n    cur.execute('SELECT ' + q)\n") == [.medium])
        #expect(try Self.confidences("def f():\n    q = 'users'\n    cur.execute('SELECT ' + q)\n") == [.low])
    }

    @Test("a comprehension whose elements ignore the loop variable shows only how many, not what")
    func comprehensionCounts() throws {
        let placeholders = "def f(cur, ids):\n    cur.execute('SELECT ' + ', '.join('?' for _ in ids))\n"
        #expect(try Self.confidences(placeholders) == [.low])
        let values = "def f(cur, ids):\n    cur.execute('SELECT ' + ', '.join(str(i) for i in ids))\n"
        #expect(try Self.confidences(values) == [.medium])
        let filtered = "def f(cur, ids, n):\n    cur.execute('SELECT ' + ', '.join(['?' for i in ids if i > n]))\n"
        #expect(try Self.confidences(filtered) == [.low])
    }

    @Test("a parameter through a library's own quoting stays low")
    func unlessIdentifiers() throws {
        #expect(try Self.confidences("def f(cur, t):\n    cur.execute('SELECT ' + quote_name(t))\n") == [.low])
        #expect(try Self.confidences("def f(cur, t):\n    qn = compiler.qn\n    cur.execute('SELECT ' + qn(t))\n") == [.low])
    }

    @Test("confidence-from is checked: origins are named, taint rules refuse it")
    func loader() throws {
        #expect(throws: (any Error).self) {
            try engine(rule: "confidence: low\nconfidence-from:\n  metavariable: $X\n  origins: [cookie]\npattern: f($X)\n")
        }
        #expect(throws: (any Error).self) {
            try engine(
                rule:
                    "confidence: low\nconfidence-from:\n  metavariable: $X\n  origins: [parameter]\nmode: taint\nsources:\n  - pattern: a\nsinks:\n  - pattern: b($X)\n"
            )
        }
    }
}
