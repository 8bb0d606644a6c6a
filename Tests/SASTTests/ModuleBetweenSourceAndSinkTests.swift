import Foundation
import Testing

@testable import SAST

/// A module with neither a source nor a sink, between a handler and the module that holds the
/// sink, still publishes this rule's summary of its functions: its operation passes the
/// parameter on to an imported helper that reaches the sink. (Issue 77: once a `$X` source with
/// `pattern-inside` stopped matching every expression, such a module looked irrelevant to the
/// rule and a handler → operation → request chain was no longer reported.)
@Suite struct ModuleBetweenSourceAndSinkTests {
    @Test("handler → operation (no source, no sink) → helper holding the request: the flow is reported in the handler")
    func chainThroughAModuleWithoutSourceOrSink() throws {
        let texts: [String: String] = [
            "chain/app.js": """
            const express = require('express');
            const { op } = require('./op');
            const app = express();
            app.get('/fetch', (req, res) => {
              op(req.query.url);
              res.send('ok');
            });

            """,
            "chain/op.js": """
            const { fetchIt } = require('./net');
            exports.op = function (u) {
              return fetchIt(u);
            };

            """,
            "chain/net.js": """
            const axios = require('axios');
            exports.fetchIt = function (target) {
              return axios.get(target);
            };

            """,
        ]
        let engine = try RuleFilesTests.engine.get()
        let files = texts.keys.sorted()
        let results = engine.scanProject(files: files, read: { texts[$0] })
        let findings = results.compactMap { $0 }.flatMap(\.findings).filter { $0.ruleId == "javascript.taint-ssrf" }
        #expect(findings.contains { $0.location.file == "chain/app.js" && $0.location.startLine == 5 }, "\(findings)")
    }
}
