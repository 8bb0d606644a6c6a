import Foundation
import Synchronization
import Testing

@testable import SAST

/// One parse per file per scan (issue 77): the JavaScript files whose imports the project's
/// pre-scan reads from their trees are not read again by the scan, which takes those trees.
@Suite("One parse per file")
struct OneParsePerFileTests {
    @Test("a project's files are each read once, its JavaScript imports read from the same trees the scan analyses")
    func eachFileReadOnce() throws {
        let root = "one-parse-\(UUID().uuidString)"
        let texts: [String: String] = [
            root + "/routes.js": "const db = require('./db');\nexports.find = (q) => db.query(q);\n",
            root + "/db.js": "exports.query = function (sql) { return conn.query(sql); };\n",
            root + "/index.ts": "import {find} from './routes';\nfind(process.argv[2]);\n",
            root + "/plain.js": "console.log('no relative import here');\n",
            root + "/tool.py": "from . import helpers\nhelpers.run()\n",
        ]
        let reads = SourceReads(under: root)
        reads.start()
        defer { reads.stop() }
        let engine = try RuleFilesTests.engine.get()
        let files = texts.keys.sorted()
        let results = engine.scanProject(files: files, read: { texts[$0] })
        #expect(results.allSatisfy { $0 != nil && $0?.parseError == nil })
        #expect(reads.byFile == Dictionary(uniqueKeysWithValues: files.map { ($0, 1) }))
    }

    @Test("a kept tree is given only for the text it was read from, once")
    func keptForItsText() throws {
        let trees = LoweredTrees(budget: 100)
        let parsed = try SourceFrontEnd.parse(bytes: Array("f(x);\n".utf8), file: "a.js", language: .javascript)
        trees.keep(parsed, text: "f(x);\n", for: "a.js")
        #expect(trees.take("a.js", text: "g(x);\n") == nil)
        trees.keep(parsed, text: "f(x);\n", for: "a.js")
        #expect(trees.take("a.js", text: "f(x);\n")?.root == parsed.root)
        #expect(trees.take("a.js", text: "f(x);\n") == nil)
        trees.keep(parsed, text: String(repeating: "f(x);\n", count: 20), for: "big.js")
        #expect(trees.take("big.js", text: String(repeating: "f(x);\n", count: 20)) == nil)
    }
}
