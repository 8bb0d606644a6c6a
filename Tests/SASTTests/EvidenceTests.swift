import Findings
import Testing

@testable import SAST

/// Issue 75: identity by evidence. A sink is a library's only when its receiver resolves to it; a
/// source must reach the dangerous part of the sink. Without the evidence a flow is still reported,
/// at low confidence (below the default report).
@Suite struct EvidenceTests {
    static let shipped = Result { try RuleSet.load(directories: [RuleFilesTests.rulesDirectory]) }

    static func scan(_ file: String, _ source: String, rule: String) throws -> [Finding] {
        let engine = SASTEngine(rules: try shipped.get())
        let result = engine.scan(file: file, source: source)
        #expect(result.parseError == nil, "\(result.parseError ?? "")")
        return result.findings.filter { $0.ruleId == rule }
    }

    @Test("a sink's evidence: flows into a receiver shown to be the library's are high, others low with a note")
    func evidenceDecidesConfidence() throws {
        let rule = try RuleLoader.parse(
            """
            id: test.mongo
            message: found
            severity: high
            languages: [javascript, typescript]
            cwe: [943]
            \(javaScriptRequestTaint)sinks:
              - pattern: $COLL.find($FILTER)
                focus: $FILTER
                evidence:
                  metavariable-value:
                    metavariable: $COLL
                    pattern: $DB.collection(...)

            """, file: "test.mongo.yaml")
        let engine = SASTEngine(rules: try RuleSet(rules: [rule]))
        let source = """
            function handler(req, res) {
              const users = db.collection('users');
              users.find(req.query.filter);
              knex('users').find(req.query.filter);
            }

            """
        let findings = engine.scan(file: "app.js", source: source).findings
        #expect(findings.map(\.location.startLine) == [3, 4])
        #expect(findings.map(\.confidence) == [.high, .low])
        #expect(findings.last?.message.hasSuffix(TaintFindings.noEvidenceNote) == true)
        #expect(findings.first?.message.hasSuffix(TaintFindings.noEvidenceNote) == false)
    }

    @Test("an evidence block that names nothing, or an unknown key in it, is a load error naming the file")
    func evidenceIsChecked() throws {
        let rule =
            "id: t.e\nmessage: m\nseverity: high\nlanguages: [javascript]\ncwe: [943]\nmode: taint\n"
            + "sources:\n  - pattern: req.query\nsinks:\n  - pattern: $C.find($X)\n"
        _ = try RuleLoader.parse(rule, file: "t.e.yaml")
        for body in ["    evidence: {}\n", "    evidence:\n      pattern: $X\n"] {
            do {
                _ = try RuleLoader.parse(rule + body, file: "t.e.yaml")
                Issue.record("loaded a rule with \(body)")
            } catch {
                #expect("\(error)".contains("t.e.yaml") && "\(error)".contains("evidence"), "\(error)")
            }
        }
    }

    @Test("NoSQL injection: a Mongo collection or Mongoose model is a sink; a knex or Prisma query builder is not proof")
    func noSQLNeedsAMongoReceiver() throws {
        let source = """
            const mongoose = require('mongoose');
            const User = mongoose.model('User', new mongoose.Schema({ name: String }));
            app.post('/login', async (req, res) => {
              const user = await User.findOne({ name: req.body.name });
              const notes = await db.collection('notes').find({ owner: req.body.owner }).toArray();
              const rows = await query.find({ owner: req.body.owner });
              res.json({ user, notes, rows });
            });

            """
        let findings = try Self.scan("routes.js", source, rule: "javascript.taint-nosql-injection")
        #expect(findings.map(\.location.startLine) == [4, 5, 6])
        #expect(findings.map(\.confidence) == [.high, .high, .low])
    }

    @Test("DOM navigation: only a source at the start of the URL chooses its scheme (javascript:)")
    func navigationNeedsTheStart() throws {
        let source = """
            function go(root) {
              const next = new URLSearchParams(window.location.search).get('next');
              window.location = next;
              window.location = root + '/login?next=' + next + window.location.hash;
              location.href = `/search?q=${location.hash.slice(1)}`;
              location.href = '' + location.hash.slice(1);
            }

            """
        let findings = try Self.scan("page.js", source, rule: "javascript.taint-dom-navigation")
        #expect(findings.map(\.location.startLine) == [3, 6])
        #expect(try Self.scan("page.js", source, rule: "javascript.taint-dom-xss").isEmpty)
    }

    @Test("reflected XSS: a response body built with markup is the HTML context shown; a bare value is low confidence")
    func xssNeedsTheHTMLContext() throws {
        let source = """
            app.get('/missing', (req, res) => {
              res.status(404).send(`<p>No page at ${req.query.url}</p>`);
            });
            app.get('/echo', (req, res) => {
              res.send(req.query.text);
            });

            """
        let findings = try Self.scan("server.js", source, rule: "javascript.taint-xss")
        #expect(findings.map(\.location.startLine) == [2, 5])
        #expect(findings.map(\.confidence) == [.high, .low])
        let python = """
            from flask import Flask, request
            app = Flask(__name__)
            @app.route('/hello')
            def hello():
                return f"<h1>Hello {request.args.get('name')}</h1>"
            @app.route('/raw')
            def raw():
                return request.args.get('name')

            """
        let pythonFindings = try Self.scan("app.py", python, rule: "python.taint-xss")
        #expect(pythonFindings.map(\.location.startLine) == [5, 8])
        #expect(pythonFindings.map(\.confidence) == [.high, .low])
    }

    @Test("CORS: origin '*' with credentials is refused by browsers (no finding); reflecting the origin is")
    func corsWildcardWithCredentialsFailsClosed() throws {
        let source = """
            const cors = require('cors');
            app.use(cors({ origin: '*', credentials: true }));
            app.use(cors({ origin: true, credentials: true }));

            """
        let findings = try Self.scan("app.js", source, rule: "javascript.cors-permissive-credentials")
        #expect(findings.map(\.location.startLine) == [3])
    }
}
