import Foundation
import Testing
import Support
@testable import SCA

@Suite("OSV decoding")
struct OSVDecoderTests {
    @Test("YAML with unquoted timestamps and numbers keeps them as written")
    func yamlScalars() throws {
        let yaml = """
            id: PYSEC-0000-1
            modified: 2023-11-07T20:24:23.946863Z
            published: 2020-08-05 14:15:00
            withdrawn: 2024-01-01T00:00:00Z
            aliases: [CVE-2020-1]
            affected:
            - package: {ecosystem: PyPI, name: Some_Pkg}
              ranges:
              - type: ECOSYSTEM
                events:
                - introduced: 0
                - fixed: 1.10
              versions: [1.0, 1.9]
            """
        let r = try OSVDecoder.decodeYAML(yaml, source: "x.yaml")
        #expect(r.modified == "2023-11-07T20:24:23.946863Z")
        #expect(r.published == "2020-08-05 14:15:00")
        #expect(r.withdrawn == "2024-01-01T00:00:00Z")
        #expect(r.affected.first?.ranges.first?.events == [.introduced("0"), .fixed("1.10")])
        #expect(r.affected.first?.versions == ["1.0", "1.9"])
        #expect(r.modifiedKey == "2023-11-07T20:24:23.946863000Z")
    }

    @Test("JSON record with every field")
    func json() throws {
        let json = """
            {"id": "GHSA-xxxx", "modified": "2024-01-02T03:04:05Z", "aliases": ["CVE-2024-1"], "summary": "s",
             "severity": [{"type": "CVSS_V3", "score": "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H"}],
             "affected": [{"package": {"ecosystem": "npm", "name": "Left-Pad", "purl": "pkg:npm/left-pad"},
                           "ranges": [{"type": "SEMVER", "events": [{"introduced": "0"}, {"last_affected": "1.2.3"}]},
                                      {"type": "GIT", "repo": "r", "events": [{"introduced": "abc"}, {"limit": "def"}]}],
                           "database_specific": {"severity": "HIGH"}}],
             "references": [{"type": "ADVISORY", "url": "https://example.org/a"}],
             "database_specific": {"severity": "MODERATE"}}
            """
        let r = try OSVDecoder.decodeJSON(Data(json.utf8), source: "a.json")
        #expect(r.id == "GHSA-xxxx" && r.aliases == ["CVE-2024-1"] && r.summary == "s")
        #expect(r.severity == [OSVSeverity(type: "CVSS_V3", score: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H")])
        #expect(r.affected[0].ranges[1].events == [.introduced("abc"), .limit("def")])
        #expect(r.affected[0].ranges[0].events == [.introduced("0"), .lastAffected("1.2.3")])
        #expect(r.affected[0].severity == "HIGH" && r.databaseSeverity == "MODERATE")
        #expect(r.references == [OSVReference(type: "ADVISORY", url: "https://example.org/a")])
    }

    @Test(
        "malformed records give one-line errors naming the file",
        arguments: [
            ("{", "bad.json: not valid JSON"),
            ("[1,2]", "bad.json: top level is not an object"),
            (#"{"modified": "2024-01-01T00:00:00Z"}"#, "bad.json: missing \"id\""),
            (#"{"id": "X-1"}"#, "bad.json: X-1: missing \"modified\""),
            (
                #"{"id": "X-1", "modified": "m", "affected": [{"package": {"name": "p"}}]}"#,
                "bad.json: X-1: affected[0]: package without ecosystem or name"
            ),
            (
                #"{"id": "X-1", "modified": "m", "affected": [{"package": {"name": "p", "ecosystem": "PyPI"}, "ranges": [{"type": "ECOSYSTEM", "events": [{"fixed": "1"}]}]}]}"#,
                "bad.json: X-1: affected[0]: ranges[0] has no \"introduced\" event"
            ),
            (
                #"{"id": "X-1", "modified": "m", "affected": [{"package": {"name": "p", "ecosystem": "PyPI"}, "ranges": [{"type": "ECOSYSTEM", "events": [{"introduced": "0"}, {"bogus": "1"}]}]}]}"#,
                "bad.json: X-1: affected[0]: ranges[0] has an event of unknown kind"
            ),
        ])
    func malformed(_ text: String, _ message: String) {
        #expect(throws: SentinelError(.invalidInput, message)) {
            try OSVDecoder.decodeJSON(Data(text.utf8), source: "bad.json")
        }
    }

    @Test("invalid YAML is reported with the file name")
    func badYAML() {
        do {
            _ = try OSVDecoder.decodeYAML("id: [unclosed\nmodified: x", source: "bad.yaml")
            Issue.record("expected an error")
        } catch let error as SentinelError {
            #expect(error.message.hasPrefix("bad.yaml: not valid YAML"))
            #expect(!error.message.contains("\n"))
        } catch { Issue.record("unexpected \(error)") }
    }

    @Test(
        "timestamps normalise so that text order is time order",
        arguments: [
            ("2023-11-07T20:24:23Z", "2023-11-07T20:24:23.000000000Z"),
            ("2023-11-07T20:24:23.5Z", "2023-11-07T20:24:23.500000000Z"),
            ("2023-11-07 20:24:23", "2023-11-07T20:24:23.000000000Z"),
            ("2023-11-07T20:24:23+02:00", "2023-11-07T20:24:23+02:00"),
        ])
    func timestamps(_ input: String, _ key: String) {
        #expect(OSVTimestamp.sortKey(input) == key)
    }
}
