import Foundation
import Testing
@testable import SCA

@Suite("SemVer, Go, RubyGems and dotted orderings")
struct VersionSemVerTests {
    /// SemVer 2.0's own precedence example, then more: each strictly greater than the one before.
    static let semverAscending = [
        "0.0.0-0", "0.0.0", "0.0.1", "0.1.0", "0.9.0", "0.10.0", "1.0.0-0", "1.0.0-0.0", "1.0.0-1", "1.0.0-2",
        "1.0.0-10", "1.0.0-a", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
        "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.1.0", "1.2.3-alpha", "1.2.3", "1.10.0", "2.0.0",
        "10.0.0", "18446744073709551616.0.0",
    ]

    @Test("SemVer precedence sequence is strictly ascending")
    func semverOrder() throws {
        let s = SemVerScheme()
        let parsed = try Self.semverAscending.map { try #require(s.parse($0), "\($0)") }
        for i in parsed.indices {
            for j in parsed.indices where i < j {
                #expect(parsed[i] < parsed[j], "\(Self.semverAscending[i]) < \(Self.semverAscending[j])")
                #expect(!(parsed[j] < parsed[i]))
            }
        }
    }

    @Test(
        "build metadata is ignored for precedence",
        arguments: [
            ("1.0.0+build.1", "1.0.0+build.2"), ("1.0.0-alpha+001", "1.0.0-alpha"), ("1.0.0+20130313144700", "1.0.0"),
        ])
    func buildIgnored(_ a: String, _ b: String) {
        #expect(SemVerScheme().compare(a, b) == .orderedSame)
    }

    @Test(
        "strict SemVer rejects",
        arguments: [
            "1.2", "1", "v1.2.3", "01.2.3", "1.02.3", "1.2.3-01", "1.2.3-", "1.2.3+", "1.2.3-a..b", "1.2.3.4", "a.b.c",
            "1.2.3-a_b", "", "1.2.-3",
        ])
    func strictInvalid(_ text: String) {
        #expect(SemVerScheme().parse(text) == nil, "\(text)")
    }

    @Test(
        "lenient SemVer accepts what lockfiles write",
        arguments: [
            ("1.2", "1.2.0"), ("1", "1.0.0"), ("v1.2.3", "1.2.3"), ("=1.2.3", "1.2.3"), ("01.2.3", "1.2.3"),
            (" 1.2.3 ", "1.2.3"), ("1.2.3-01", "1.2.3-1"),
        ])
    func lenient(_ text: String, _ same: String) {
        #expect(SemVerScheme(lenient: true).compare(text, same) == .orderedSame)
        #expect(SemVerScheme(lenient: false).parse(text) == nil)
    }

    /// Go: pseudo-versions sort as SemVer pre-releases; `+incompatible` is build metadata.
    static let goAscending = [
        "v0.0.0-20191109021931-daa7c04131f5", "v0.0.0-20200101000000-aaaaaaaaaaaa", "v0.0.0", "v0.1.0",
        "v1.2.3", "v1.2.4-0.20191109021931-daa7c04131f5", "v1.2.4-beta", "v1.2.4-beta.0.20200101000000-abcdefabcdef",
        "v1.2.4-beta.1", "v1.2.4", "v2.0.0+incompatible", "v2.1.0+incompatible", "v3.0.0",
    ]

    @Test("Go module versions and pseudo-versions order correctly")
    func goOrder() throws {
        let s = GoVersionScheme()
        let parsed = try Self.goAscending.map { try #require(s.parse($0), "\($0)") }
        for i in parsed.indices {
            for j in parsed.indices where i < j {
                #expect(parsed[i] < parsed[j], "\(Self.goAscending[i]) < \(Self.goAscending[j])")
            }
        }
        #expect(s.compare("v2.0.0+incompatible", "2.0.0") == .orderedSame)
        #expect(s.compare("v1.2.3", "1.2.3") == .orderedSame)
    }

    @Test(
        "pseudo-version detection",
        arguments: [
            ("v0.0.0-20191109021931-daa7c04131f5", true), ("v1.2.4-0.20191109021931-daa7c04131f5", true),
            ("v1.2.4-beta.0.20200101000000-abcdefabcdef", true), ("v1.2.3", false), ("v1.2.3-beta.1", false),
            ("v0.0.0-2019-daa7c04131f5", false),
        ])
    func pseudo(_ text: String, _ expected: Bool) {
        #expect(GoVersionScheme.isPseudoVersion(text) == expected)
    }

    @Test(
        "Go toolchain spellings map to OSV's SemVer",
        arguments: [
            ("go1.21", "1.21.0"), ("1.21", "1.21.0"), ("1.21.3", "1.21.3"), ("go1.21.3", "1.21.3"),
            ("go1.21rc1", "1.21.0-rc.1"), ("1.22beta2", "1.22.0-beta.2"), ("go1.9", "1.9.0"),
        ])
    func toolchain(_ text: String, _ expected: String) throws {
        #expect(try #require(GoVersionScheme().parse(text)).precedenceText == expected)
    }

    @Test("Go toolchain ordering: rc before release, 1.9 before 1.10")
    func toolchainOrder() {
        let s = GoVersionScheme()
        #expect(s.compare("go1.21rc1", "go1.21") == .orderedAscending)
        #expect(s.compare("go1.21rc2", "1.21.0-rc.1") == .orderedDescending)
        #expect(s.compare("go1.9", "go1.10") == .orderedAscending)
        #expect(s.parse("go1.21foo1") == nil)
        #expect(s.parse("gox") == nil)
    }

    /// RubyGems: pre-releases (letters) sort before the release; trailing zeros do not matter.
    static let gemsAscending = [
        "0.9", "1.0.a", "1.0.a.2", "1.0.b1", "1.0.rc1", "1.0", "1.0.1", "1.1.pre", "1.1", "1.2-1", "1.2", "1.10", "2",
    ]

    @Test("RubyGems ordering")
    func gemsOrder() throws {
        let s = RubyGemsScheme()
        let parsed = try Self.gemsAscending.map { try #require(s.parse($0), "\($0)") }
        for i in parsed.indices {
            for j in parsed.indices where i < j {
                #expect(parsed[i] < parsed[j], "\(Self.gemsAscending[i]) < \(Self.gemsAscending[j])")
            }
        }
        #expect(s.compare("1.0", "1.0.0.0") == .orderedSame)
        #expect(s.compare("1.0.a", "1.a") == .orderedSame)
        #expect(s.compare("1.2-1", "1.2.pre.1") == .orderedSame)
        for bad in ["", "a.b", "1..2", "1.2-", "1.2 3", ".1"] { #expect(s.parse(bad) == nil, "\(bad)") }
    }

    @Test("dotted numeric fallback compares numbers and refuses anything else")
    func dotted() {
        let s = DottedNumericScheme()
        #expect(s.compare("1.2", "1.2.0") == .orderedSame)
        #expect(s.compare("1.9", "1.10") == .orderedAscending)
        #expect(s.compare("2", "10") == .orderedAscending)
        #expect(s.compare("1.0.0.1", "1.0.0") == .orderedDescending)
        for bad in ["1.0-beta", "1:2.3-4", "1.0.Final", "", "1..2"] { #expect(s.parse(bad) == nil, "\(bad)") }
    }

    @Test("ecosystems pick their scheme")
    func schemeForEcosystem() {
        #expect(Ecosystem.pypi.versionScheme.name == "PEP 440")
        #expect(Ecosystem.cratesIO.versionScheme.name == "SemVer (lenient)")
        #expect(Ecosystem.npm.versionScheme.name == "SemVer (lenient)")
        #expect(Ecosystem.go.versionScheme.name == "Go")
        #expect(Ecosystem.rubyGems.versionScheme.name == "RubyGems")
        #expect(Ecosystem("Maven").versionScheme.name == "dotted numeric")
    }
}
