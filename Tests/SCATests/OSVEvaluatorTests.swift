import Foundation
import Testing
@testable import SCA

@Suite("OSV range evaluation")
struct OSVEvaluatorTests {
    static func entry(_ events: [OSVEvent], type: String = "ECOSYSTEM", versions: [String] = []) -> OSVAffected {
        OSVAffected(ecosystem: "PyPI", name: "pkg", ranges: [OSVRange(type: type, events: events)], versions: versions)
    }

    static let cases: [(String, [OSVEvent], String, Bool)] = [
        // introduced 0 with no end: everything.
        ("unfixed", [.introduced("0")], "0.0.1", true),
        ("unfixed", [.introduced("0")], "99.0", true),
        // introduced/fixed: half-open interval.
        ("fixed", [.introduced("0"), .fixed("1.0.2")], "1.0.1", true),
        ("fixed", [.introduced("0"), .fixed("1.0.2")], "1.0.2", false),
        ("fixed", [.introduced("0"), .fixed("1.0.2")], "1.0.2rc1", true),
        ("fixed", [.introduced("0"), .fixed("1.0.2")], "1.0.2.post1", false),
        ("fixed", [.introduced("1.0"), .fixed("1.5")], "0.9", false),
        ("fixed", [.introduced("1.0"), .fixed("1.5")], "1.0.0", true),
        ("fixed", [.introduced("1.0"), .fixed("1.5")], "1.0rc1", false),
        // Several intervals in one range, written out of order: events are sorted first.
        ("multi", [.introduced("3.0.0"), .fixed("3.2.5"), .introduced("1.0.0"), .fixed("1.0.2")], "1.0.1", true),
        ("multi", [.introduced("3.0.0"), .fixed("3.2.5"), .introduced("1.0.0"), .fixed("1.0.2")], "2.0", false),
        ("multi", [.introduced("3.0.0"), .fixed("3.2.5"), .introduced("1.0.0"), .fixed("1.0.2")], "3.2.4", true),
        ("multi", [.introduced("3.0.0"), .fixed("3.2.5"), .introduced("1.0.0"), .fixed("1.0.2")], "3.2.5", false),
        // last_affected is inclusive.
        ("last", [.introduced("0"), .lastAffected("2.1.214")], "2.1.214", true),
        ("last", [.introduced("0"), .lastAffected("2.1.214")], "2.1.214.post1", false),
        ("last", [.introduced("0"), .lastAffected("2.1.214")], "2.1.215", false),
        // limit: only versions below a limit are considered at all.
        ("limit", [.introduced("1.0"), .limit("2.0")], "1.9", true),
        ("limit", [.introduced("1.0"), .limit("2.0")], "2.0", false),
        ("limit", [.introduced("1.0"), .limit("*")], "50", true),
        ("limit", [.introduced("1.0"), .limit("1.5"), .limit("3.0")], "2.5", true),
        // An empty interval (introduced == fixed) affects nothing.
        ("empty", [.introduced("1.0"), .fixed("1.0")], "1.0", false),
    ]

    @Test("events of every kind", arguments: 0..<cases.count)
    func events(_ index: Int) {
        let (label, events, version, expected) = Self.cases[index]
        let outcome = OSVEvaluator.evaluate(version, entries: [Self.entry(events)], ecosystem: .pypi)
        #expect(outcome.isAffected == expected, "\(label): \(version) with \(events)")
    }

    @Test("explicit versions list matches by precedence, unsorted lists included")
    func versionsList() {
        let e = OSVAffected(ecosystem: "PyPI", name: "pkg", versions: ["2.0", "1.0.0", "1.5"])
        #expect(OSVEvaluator.evaluate("1.0", entries: [e], ecosystem: .pypi).isAffected)
        #expect(OSVEvaluator.evaluate("1.5.0", entries: [e], ecosystem: .pypi).matchedBy == "listed in versions")
        #expect(!OSVEvaluator.evaluate("1.2", entries: [e], ecosystem: .pypi).isAffected)
    }

    @Test("an open range the advisory's own list of affected versions leaves this release out of is flagged as weak evidence")
    func openRangeBeyondListedVersions() {
        // As PYSEC-2020-220: introduced 0, no fix, and the versions known when it was written.
        let e = Self.entry([.introduced("0")], versions: ["6.5.0", "6.6.0", "7.0.0b1"])
        let later = OSVEvaluator.evaluate("8.7.0", entries: [e], ecosystem: .pypi)
        #expect(later.isAffected && later.onlyByOpenRangeBeyondListed)
        let listed = OSVEvaluator.evaluate("6.6.0", entries: [e], ecosystem: .pypi)
        #expect(listed.isAffected && !listed.onlyByOpenRangeBeyondListed)
        // A bounded range is evidence of its own; an open range with no list is all the advisory says.
        let bounded = Self.entry([.introduced("0"), .fixed("9.0")], versions: ["6.5.0"])
        #expect(!OSVEvaluator.evaluate("8.7.0", entries: [bounded], ecosystem: .pypi).onlyByOpenRangeBeyondListed)
        let unlisted = Self.entry([.introduced("0")])
        #expect(!OSVEvaluator.evaluate("8.7.0", entries: [unlisted], ecosystem: .pypi).onlyByOpenRangeBeyondListed)
    }

    @Test("GIT ranges never apply to package versions")
    func gitIgnored() {
        let e = Self.entry([.introduced("0"), .fixed("abcdef1234")], type: "GIT")
        #expect(!OSVEvaluator.evaluate("1.0", entries: [e], ecosystem: .pypi).isAffected)
    }

    @Test("several affected entries: any one suffices; fixes come from all")
    func severalEntries() {
        let a = Self.entry([.introduced("0"), .fixed("1.2")])
        let b = Self.entry([.introduced("2.0"), .fixed("2.3")])
        let out = OSVEvaluator.evaluate("2.1", entries: [a, b], ecosystem: .pypi)
        #expect(out.isAffected)
        #expect(out.fixedVersions == ["1.2", "2.3"])
        #expect(out.smallestFix == "2.3")
        #expect(out.fixIsSameMajor == true)
        #expect(out.matchedBy == ">=2.0, <2.3")
    }

    @Test("smallest fix above the installed version, and whether it keeps the major")
    func smallestFix() {
        let e = Self.entry([.introduced("0"), .fixed("1.4.2"), .introduced("2.0"), .fixed("2.0.5"), .fixed("3.1")])
        let old = OSVEvaluator.evaluate("1.4.0", entries: [e], ecosystem: .pypi)
        #expect(old.smallestFix == "1.4.2")
        #expect(old.fixIsSameMajor == true)
        #expect(old.matchedBy == "<1.4.2")
        let mid = OSVEvaluator.evaluate("2.0.1", entries: [e], ecosystem: .pypi)
        #expect(mid.smallestFix == "2.0.5")
        #expect(mid.fixedVersions == ["1.4.2", "2.0.5", "3.1"])
        let only = OSVEvaluator.evaluate(
            "0.9",
            entries: [
                Self.entry([.introduced("0.5"), .fixed("1.0")]),
                Self.entry([.introduced("0"), .lastAffected("0.9.9")]),
            ],
            ecosystem: .pypi)
        #expect(only.smallestFix == "1.0")
        #expect(only.fixIsSameMajor == false)
        let unfixed = OSVEvaluator.evaluate("1.0", entries: [Self.entry([.introduced("0")])], ecosystem: .pypi)
        #expect(unfixed.smallestFix == nil && unfixed.fixIsSameMajor == nil)
    }

    @Test("a fix that is itself re-affected is skipped")
    func fixReaffected() {
        // 1.5 fixes the first interval but the second range re-introduces it.
        let e = OSVAffected(
            ecosystem: "PyPI", name: "pkg",
            ranges: [
                OSVRange(type: "ECOSYSTEM", events: [.introduced("0"), .fixed("1.5")]),
                OSVRange(type: "ECOSYSTEM", events: [.introduced("1.5"), .fixed("1.6")]),
            ])
        let out = OSVEvaluator.evaluate("1.0", entries: [e], ecosystem: .pypi)
        #expect(out.smallestFix == "1.6")
    }

    @Test("unparseable versions: the range is skipped, the list still matches exactly")
    func unparseable() {
        let e = OSVAffected(
            ecosystem: "PyPI", name: "pkg",
            ranges: [OSVRange(type: "ECOSYSTEM", events: [.introduced("0"), .fixed("not a version")])],
            versions: ["weird-1"])
        let a = OSVEvaluator.evaluate("1.0", entries: [e], ecosystem: .pypi)
        #expect(!a.isAffected && a.unusableRanges == 1)
        #expect(OSVEvaluator.evaluate("weird-1", entries: [e], ecosystem: .pypi).isAffected)
    }

    @Test("SEMVER ranges for crates and Go, with Go's v prefix and pseudo-versions")
    func semverRanges() {
        let crate = OSVAffected(
            ecosystem: "crates.io", name: "c",
            ranges: [OSVRange(type: "SEMVER", events: [.introduced("0.0.0-0"), .fixed("0.8.1")])])
        #expect(OSVEvaluator.evaluate("0.8.0", entries: [crate], ecosystem: .cratesIO).isAffected)
        #expect(OSVEvaluator.evaluate("0.8.1-alpha.1", entries: [crate], ecosystem: .cratesIO).isAffected)
        #expect(!OSVEvaluator.evaluate("0.8.1", entries: [crate], ecosystem: .cratesIO).isAffected)
        let go = OSVAffected(
            ecosystem: "Go", name: "m",
            ranges: [OSVRange(type: "SEMVER", events: [.introduced("0"), .fixed("0.0.0-20200101000000-abcdefabcdef")])])
        #expect(OSVEvaluator.evaluate("v0.0.0-20191109021931-daa7c04131f5", entries: [go], ecosystem: .go).isAffected)
        #expect(!OSVEvaluator.evaluate("v0.1.0", entries: [go], ecosystem: .go).isAffected)
        let stdlib = OSVAffected(
            ecosystem: "Go", name: "stdlib",
            ranges: [
                OSVRange(
                    type: "SEMVER",
                    events: [
                        .introduced("0"), .fixed("1.20.12"), .introduced("1.21.0-0"), .fixed("1.21.5"),
                    ])
            ])
        #expect(OSVEvaluator.evaluate("1.21", entries: [stdlib], ecosystem: .go).isAffected)
        #expect(OSVEvaluator.evaluate("go1.21rc2", entries: [stdlib], ecosystem: .go).isAffected)
        #expect(!OSVEvaluator.evaluate("go1.21.5", entries: [stdlib], ecosystem: .go).isAffected)
        #expect(!OSVEvaluator.evaluate("1.20.12", entries: [stdlib], ecosystem: .go).isAffected)
        #expect(OSVEvaluator.evaluate("1.21.1", entries: [stdlib], ecosystem: .go).smallestFix == "1.21.5")
    }
}
