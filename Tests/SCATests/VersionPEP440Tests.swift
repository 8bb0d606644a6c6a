import Foundation
import Testing
@testable import SCA
import TestSupport

@Suite("PEP 440 ordering")
struct VersionPEP440Tests {
    let scheme = PEP440Scheme()

    /// The PEP's own example order, plus epochs and local versions: each sorts strictly after the last.
    static let ascending = [
        "1.0.dev456", "1.0a1", "1.0a2.dev456", "1.0a12.dev456", "1.0a12", "1.0b1.dev456", "1.0b2",
        "1.0b2.post345.dev456", "1.0b2.post345", "1.0rc1.dev456", "1.0rc1", "1.0", "1.0+abc.5", "1.0+abc.7",
        "1.0+5", "1.0.post456.dev34", "1.0.post456", "1.0.15", "1.1.dev1", "1.1", "1.2.3", "1.10",
        "2.0.0a1", "2.0", "2.0.1", "10.0", "2013.10.1", "1!0.1", "1!1.0.dev1", "1!1.0", "2!0.0.1",
    ]

    @Test("the PEP's example sequence is strictly ascending")
    func exampleOrder() throws {
        let parsed = try Self.ascending.map { try #require(scheme.parse($0), "\($0) should parse") }
        for i in parsed.indices {
            for j in parsed.indices where i < j {
                #expect(parsed[i] < parsed[j], "\(Self.ascending[i]) < \(Self.ascending[j])")
                #expect(!(parsed[j] < parsed[i]))
                #expect(parsed[i] != parsed[j])
            }
        }
    }

    @Test(
        "spellings that normalise to the same version",
        arguments: [
            ("1.0", "1.0.0"), ("1", "1.0.0.0"), ("1.0-1", "1.0.post1"), ("1.0alpha1", "1.0a1"), ("1.0c1", "1.0rc1"),
            ("1.0pre1", "1.0rc1"), ("1.0preview1", "1.0rc1"), ("v1.0", "1.0"), ("V1.0", "1.0"), ("1.0.DEV1", "1.0.dev1"),
            ("1.0_a_1", "1.0a1"), ("1.0-r4", "1.0.post4"), ("1.0rev", "1.0.post0"), ("1.0a", "1.0a0"),
            ("  1.0\n", "1.0"), ("1.0+ubuntu-1", "1.0+ubuntu.1"), ("01.02", "1.2"), ("0!1.0", "1.0"),
            ("1.0.post", "1.0.post0"), ("1.0-dev", "1.0.dev0"), ("1.0.beta.2", "1.0b2"), ("1.0RC1", "1.0rc1"),
            ("1.0-post-2", "1.0.post2"), ("1.0+Local.007", "1.0+local.7"), ("2.0.0-rc.1", "2.0.0rc1"),
        ])
    func equalSpellings(_ a: String, _ b: String) throws {
        let x = try #require(scheme.parse(a)), y = try #require(scheme.parse(b))
        #expect(x == y)
        #expect(scheme.equalityKey(x) == scheme.equalityKey(y))
        #expect(scheme.compare(a, b) == .orderedSame)
    }

    @Test(
        "normalised spelling matches packaging's str()",
        arguments: [
            ("1.0-1", "1.0.post1"), ("1.0alpha1", "1.0a1"), ("v1.0.0", "1.0.0"), ("1!2.0c3", "1!2.0rc3"),
            ("1.0.DEV1", "1.0.dev1"), ("1.0+Ubuntu_1", "1.0+ubuntu.1"), ("1.0a.post.dev", "1.0a0.post0.dev0"),
        ])
    func normalisedText(_ input: String, _ expected: String) throws {
        #expect(try #require(scheme.parse(input)).description == expected)
    }

    @Test(
        "pairwise orderings that trip naive comparisons",
        arguments: [
            ("1.0rc1", "1.0"), ("1.0", "1.0.post1"), ("1.0.dev1", "1.0a1"), ("1.9", "1.10"), ("1.0", "1.0+local"),
            ("1.0+abc", "1.0+1"), ("1.0+abc", "1.0+abd"), ("1.0+1", "1.0+1.a"), ("1.0+a.1", "1.0+a.2"),
            ("1.0a1.post1", "1.0a2"), ("1.0.post1.dev1", "1.0.post1"), ("1.0a1.dev1", "1.0a1"), ("2.0.dev0", "2.0a0"),
            ("9999", "1!0"), ("0.9.9", "0.10"), ("1.0b1", "1.0c1"), ("1.0rc2", "1.0.post0.dev0"),
            ("1.0.0.0.1", "1.0.1"), ("3.0.0b2", "3.0.0"), ("1.12345678901234567890", "1.12345678901234567891"),
        ])
    func strictlyLess(_ a: String, _ b: String) {
        #expect(scheme.compare(a, b) == .orderedAscending)
        #expect(scheme.compare(b, a) == .orderedDescending)
    }

    @Test(
        "invalid versions are rejected",
        arguments: [
            "", "  ", "1.0.", ".1", "abc", "1.0+", "1.0+a..b", "1..0", "1.0-", "1.0 beta", "français", "1.0a1a",
            "1!", "v", "1.0+local+again", "1.0.x", "1.0-final", "1.0_", "=1.0", "1.0 ", "1.0dev1a",
        ])
    func invalid(_ text: String) {
        // "1.0 " is the one valid item here: surrounding whitespace is allowed.
        if text == "1.0 " { #expect(scheme.parse(text) != nil); return }
        #expect(scheme.parse(text) == nil, "\(text) should be invalid")
        #expect(scheme.compare(text, "1.0") == nil)
    }

    @Test("major key carries the epoch and the first release number")
    func majorKey() throws {
        #expect(scheme.majorKey(try #require(scheme.parse("2.5.1"))) == "0!2")
        #expect(scheme.majorKey(try #require(scheme.parse("1!2.0"))) == "1!2")
        #expect(scheme.majorKey(try #require(scheme.parse("02.0"))) == scheme.majorKey(try #require(scheme.parse("2.9"))))
    }

    /// Generated versions covering every grammar part and separator, deterministic.
    static func generated(count: Int) -> [String] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        let seps = ["", ".", "-", "_"]
        let pres = ["a", "b", "rc", "c", "alpha", "beta", "pre", "preview", "A", "RC"]
        let posts = ["post", "rev", "r", "POST"]
        var out = [String]()
        for _ in 0..<count {
            var s = next(5) == 0 ? "v" : ""
            if next(8) == 0 { s += "\(next(3))!" }
            s += (0..<(1 + next(4))).map { _ in String(next(4) == 0 ? next(20) : next(3)) }.joined(separator: ".")
            if next(3) == 0 { s += seps[next(4)] + pres[next(pres.count)] + (next(4) == 0 ? "" : seps[next(4)] + "\(next(3))") }
            if next(4) == 0 {
                s += next(3) == 0 ? "-\(next(3))" : seps[next(4)] + posts[next(posts.count)] + (next(3) == 0 ? "" : "\(next(3))")
            }
            if next(4) == 0 { s += seps[next(4)] + "dev" + (next(3) == 0 ? "" : "\(next(3))") }
            if next(6) == 0 { s += "+" + ["abc", "1", "ubuntu-1", "a.1", "7.b", "00", "Z_9"][next(7)] }
            if next(25) == 0 { s += ["..", "+", "x", " beta", "-"][next(5)] }  // some invalid ones
            out.append(s)
        }
        return out
    }

    /// Compares validity, normalised text and total order with Python's `packaging.version` on a few
    /// thousand generated strings plus every version string of the PyPI corpus.
    @Test(
        "agrees with packaging.version on generated and corpus versions",
        .enabled(if: Fixtures.hasPackaging, "needs python3 with the packaging library"))
    func agreesWithPackaging() throws {
        var inputs = Self.generated(count: 3000)
        if Fixtures.exists(Fixtures.pypa) || Corpora.required {
            let files = try OSVDatabase.collectFiles([Fixtures.pypa]).prefix(600)
            for file in files {
                guard let text = try? String(contentsOfFile: file, encoding: .utf8),
                    let record = try? OSVDecoder.decodeYAML(text, source: file)
                else { continue }
                for entry in record.affected {
                    inputs += entry.versions
                    inputs += entry.ranges.flatMap { $0.events.map(\.version) }
                }
            }
        }
        inputs = Array(Set(inputs)).filter { !$0.contains("\n") }.sorted()
        // Generated strings repeat; the corpus adds a few thousand more when it is present.
        let corpus = Fixtures.exists(Fixtures.pypa)
        #expect(inputs.count > (corpus ? 3000 : 2000))
        let script = """
            import sys
            from packaging.version import Version, InvalidVersion
            items = sys.stdin.read().split("\\n")[:-1]
            parsed = []
            for s in items:
                try: parsed.append(Version(s))
                except InvalidVersion: parsed.append(None)
            valid = sorted(set(v for v in parsed if v is not None))
            rank = {v: i for i, v in enumerate(valid)}
            for v in parsed:
                print("INVALID" if v is None else "%d %s" % (rank[v], v))
            """
        let result = try Fixtures.run("/usr/bin/env", ["python3", "-c", script], input: inputs.joined(separator: "\n") + "\n")
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        try #require(lines.count == inputs.count)
        // Walk the items both accept in packaging's order: ours must ascend exactly where theirs does.
        var mismatches = [String]()
        var both = [(rank: Int, mine: PEP440Version, text: String)]()
        for (i, line) in lines.enumerated() {
            let mine = scheme.parse(inputs[i])
            guard line != "INVALID" else {
                if mine != nil { mismatches.append("\(inputs[i]): we accept, packaging rejects") }
                continue
            }
            let fields = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard let mine else { mismatches.append("\(inputs[i]): we reject, packaging accepts"); continue }
            if fields.count == 2, fields[1] != mine.description { mismatches.append("\(inputs[i]): \(mine) vs \(fields[1])") }
            both.append((Int(fields[0]) ?? -1, mine, inputs[i]))
        }
        both.sort { $0.rank < $1.rank }
        for (a, b) in zip(both, both.dropFirst()) {
            if a.rank == b.rank && a.mine != b.mine { mismatches.append("\(a.text) == \(b.text) for packaging, not for us") }
            if a.rank < b.rank && !(a.mine < b.mine) { mismatches.append("\(a.text) < \(b.text) for packaging, not for us") }
        }
        #expect(both.count > (corpus ? 2500 : 1500))
        #expect(mismatches.count == 0, "first mismatches: \(mismatches.prefix(10))")
    }
}
