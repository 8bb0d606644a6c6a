import Foundation
import Testing
import Support
@testable import SCA
import TestSupport

@Suite("Database lookup")
struct DatabaseLookupTests {
    @Test(
        "names are normalised per ecosystem",
        arguments: [
            ("PyPI", "Some_Pkg.Name", "some-pkg-name", true), ("PyPI", "some--pkg__name", "Some.Pkg.Name", true),
            ("npm", "Left-Pad", "left-pad", true), ("crates.io", "Serde_JSON", "serde_json", true),
            ("crates.io", "serde-json", "serde_json", false),
            ("Go", "github.com/Foo/bar", "github.com/foo/bar", false), ("Go", "github.com/Foo/bar", "github.com/Foo/bar", true),
            ("RubyGems", "Rails", "rails", false),
        ])
    func normalisation(_ ecosystem: String, _ recorded: String, _ asked: String, _ matches: Bool) throws {
        let dir = try TemporaryDirectory.url("sca")
        defer { try? FileManager.default.removeItem(at: dir) }
        try RecordFiles.write(
            RecordFiles.json(
                id: "N-1", ecosystem: ecosystem, name: recorded,
                events: #"{"introduced": "0"}, {"fixed": "5.0.0"}"#), "N-1.json", in: dir)
        let db = try OSVDatabase(path: dir.appendingPathComponent("osv.sqlite").path)
        _ = try db.import(paths: [dir.path])
        let found = try db.lookup(Dependency(ecosystem: Ecosystem(ecosystem), name: asked, version: "1.0.0", file: "f", line: 1))
        #expect(found.isEmpty != matches)
    }

    @Test("match carries severity, fix data, aliases and the advisory link")
    func matchContents() throws {
        let dir = try TemporaryDirectory.url("sca")
        defer { try? FileManager.default.removeItem(at: dir) }
        let extra =
            #""severity": [{"type": "CVSS_V3", "score": "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H"}], "references": [{"type": "ADVISORY", "url": "https://example.org/M-1"}],"#
        try RecordFiles.write(
            RecordFiles.json(
                id: "M-1", name: "lib",
                events: #"{"introduced": "1.0"}, {"fixed": "1.4.2"}, {"introduced": "2.0"}, {"fixed": "2.1"}"#,
                extra: extra), "M-1.json", in: dir)
        try RecordFiles.write(
            RecordFiles.json(
                id: "M-2", name: "lib", events: #"{"introduced": "0"}, {"last_affected": "1.3"}"#,
                extra: #""database_specific": {"severity": "LOW"},"#), "M-2.json", in: dir)
        let db = try OSVDatabase(path: dir.appendingPathComponent("osv.sqlite").path)
        _ = try db.import(paths: [dir.path])
        let deps = [
            Dependency(ecosystem: .pypi, name: "lib", version: "1.3", file: "requirements.txt", line: 4),
            Dependency(ecosystem: .pypi, name: "lib", version: nil, file: "requirements.txt", line: 5),
            Dependency(ecosystem: .pypi, name: "lib", version: "2.1", file: "requirements.txt", line: 6),
        ]
        let results = try db.lookup(deps)
        try #require(results.count == 3)
        #expect(results[1].isEmpty && results[2].isEmpty)
        let byID = Dictionary(uniqueKeysWithValues: results[0].map { ($0.advisory.id, $0) })
        let m1 = try #require(byID["M-1"])
        #expect(m1.advisory.severity.severity == .critical && m1.advisory.severity.score == 9.8)
        #expect(m1.advisory.aliases == ["CVE-M-1"] && m1.advisory.summary == "summary of M-1")
        #expect(m1.advisory.url == "https://osv.dev/vulnerability/M-1")
        #expect(m1.advisory.references == [OSVReference(type: "ADVISORY", url: "https://example.org/M-1")])
        #expect(m1.fixedVersions == ["1.4.2", "2.1"] && m1.smallestFix == "1.4.2" && m1.fixIsSameMajor == true)
        #expect(m1.affectedRange == ">=1.0, <1.4.2")
        let m2 = try #require(byID["M-2"])
        #expect(m2.advisory.severity.severity == .low && m2.advisory.severity.source == "database")
        #expect(m2.affectedRange == "<=1.3" && m2.smallestFix == nil)
        #expect(try db.lookup(deps[0]) == results[0])
    }

    @Test(
        "a real PyPI advisory: jinja2 2.10 and CVE-2019-10906",
        .needsCorpus("osv/pypa/vulns"))
    func jinja() throws {
        let db = try OSVDatabase(path: try CorpusDatabases.pypa.get().path)
        let old = try db.lookup(Dependency(ecosystem: .pypi, name: "Jinja2", version: "2.10", file: "r", line: 1))
        let m = try #require(old.first { $0.advisory.id == "PYSEC-2019-217" })
        #expect(m.advisory.aliases.contains("CVE-2019-10906"))
        #expect(m.smallestFix == "2.10.1" && m.fixIsSameMajor == true && m.affectedRange == "<2.10.1")
        let fixed = try db.lookup(Dependency(ecosystem: .pypi, name: "jinja2", version: "2.10.1", file: "r", line: 1))
        #expect(!fixed.contains { $0.advisory.id == "PYSEC-2019-217" })
        #expect(fixed.count < old.count)
        // The record kept from YAML decodes back from its stored JSON with the same facts.
        let stored = try #require(try db.record(id: "PYSEC-2019-217"))
        #expect(stored.aliases == ["CVE-2019-10906", "GHSA-462w-v97r-4m45"])
        #expect(stored.modified == "2021-11-22T04:57:52.862665Z")
        #expect(stored.affected.first?.ranges.first?.events == [.introduced("0"), .fixed("2.10.1")])
    }

    /// A second, independent evaluator in Python (`packaging` + PyYAML's BaseLoader, which keeps
    /// every scalar as text) decides the same (record, package, version) questions from the raw
    /// YAML files; the answers must agree with the database's.
    @Test(
        "agrees with an independent Python evaluator on pypa records",
        .needsCorpus("osv/pypa/vulns"),
        .enabled(
            if: Fixtures.hasPackaging && Fixtures.pythonHas("yaml"), "needs python3 with packaging and PyYAML"))
    func oracle() throws {
        let db = try OSVDatabase(path: try CorpusDatabases.pypa.get().path)
        let files = try OSVDatabase.collectFiles([Fixtures.pypa])
        var questions = [(file: String, id: String, package: String, version: String)]()
        for file in stride(from: 0, to: files.count, by: 23).map({ files[$0] }) {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8),
                let record = try? OSVDecoder.decodeYAML(text, source: file)
            else { continue }
            for entry in record.affected where entry.ecosystem == "PyPI" {
                var versions = Set(entry.versions.prefix(5))
                for event in entry.ranges.flatMap(\.events) where event.version != "0" {
                    let v = event.version
                    versions.formUnion([v, v + ".post1", v + "rc1", v + ".1"])
                }
                versions.formUnion(["0.0.1", "9999.0"])
                for v in versions.sorted() { questions.append((file, record.id, entry.name, v)) }
            }
        }
        #expect(questions.count > 1000)
        let script = #"""
            import sys, re, yaml
            from packaging.version import Version, InvalidVersion
            def V(s):
                try: return Version(s)
                except InvalidVersion: return None
            def canon(n): return re.sub(r"[-_.]+", "-", n).lower()
            cache = {}
            def affected(rec, pkg, v):
                if rec.get("withdrawn"): return False
                for aff in rec.get("affected") or []:
                    p = aff.get("package") or {}
                    if p.get("ecosystem") != "PyPI" or canon(p.get("name", "")) != canon(pkg): continue
                    if any(V(s) is not None and V(s) == v for s in aff.get("versions") or []): return True
                    for r in aff.get("ranges") or []:
                        if r.get("type") != "ECOSYSTEM": continue
                        evs = [next(iter(e.items())) for e in r.get("events") or []]
                        if any(k != "limit" and not (k == "introduced" and s == "0") and V(s) is None for k, s in evs): continue
                        limits = [s for k, s in evs if k == "limit"]
                        if limits and not any("*" in s or (V(s) is not None and v < V(s)) for s in limits): continue
                        timeline = sorted([(k, s) for k, s in evs if k != "limit"],
                                          key=lambda e: (0, V("0")) if e[0] == "introduced" and e[1] == "0" else (1, V(e[1])))
                        hit = False
                        for k, s in timeline:
                            if k == "introduced" and (s == "0" or v >= V(s)): hit = True
                            elif k == "fixed" and v >= V(s): hit = False
                            elif k == "last_affected" and v > V(s): hit = False
                        if hit: return True
                return False
            for line in sys.stdin.read().split("\n")[:-1]:
                f, pkg, ver = line.split("\t")
                v = V(ver)
                if v is None: print("S"); continue
                if f not in cache: cache[f] = yaml.load(open(f), Loader=yaml.BaseLoader)
                print("1" if affected(cache[f], pkg, v) else "0")
            """#
        let input = questions.map { "\($0.file)\t\($0.package)\t\($0.version)" }.joined(separator: "\n") + "\n"
        let t0 = Date()
        let result = try Fixtures.run("/usr/bin/env", ["python3", "-c", script], input: input)
        let t1 = Date()
        #expect(result.status == 0)
        let answers = result.output.split(separator: "\n").map(String.init)
        try #require(answers.count == questions.count)
        let deps = questions.map { Dependency(ecosystem: .pypi, name: $0.package, version: $0.version, file: "r", line: 1) }
        let ours = try db.lookup(deps)
        print("oracle timing: python \(t1.timeIntervalSince(t0)) s, lookups \(Date().timeIntervalSince(t1)) s")
        var disagreements = [String]()
        var checked = 0, affectedCount = 0
        for (i, q) in questions.enumerated() where answers[i] != "S" {
            checked += 1
            let mine = ours[i].contains { $0.advisory.id == q.id }
            if mine { affectedCount += 1 }
            if mine != (answers[i] == "1") { disagreements.append("\(q.id) \(q.package) \(q.version): ours \(mine), oracle \(answers[i])") }
        }
        print("oracle: \(checked) questions, \(affectedCount) affected, \(disagreements.count) disagreements")
        #expect(checked > 1000 && affectedCount > 200)
        #expect(disagreements.count == 0, "first: \(disagreements.prefix(10))")
    }
}
