import Heal
import Testing

@Suite("Ochiai")
struct OchiaiTests {
    static func run(_ id: String, _ outcome: TestOutcome, _ lines: [Int], file: String = "a.py") -> TestRun {
        TestRun(id: id, outcome: outcome, lines: Set(lines.map { SourceLine(file: file, line: $0) }))
    }

    @Test("scores follow ef / sqrt((ef + nf)(ef + ep)); lines no failing test ran are left out")
    func knownScores() {
        let spectrum = TestSpectrum(tests: [
            Self.run("t1", .failed, [1, 2, 3]),
            Self.run("t2", .failed, [1, 3]),
            Self.run("p1", .passed, [1, 2]),
            Self.run("p2", .passed, [1]),
            Self.run("s1", .skipped, [3, 4]),
        ])
        let ranked = Ochiai.rank(spectrum)
        #expect(ranked.map(\.line) == [3, 1, 2])
        #expect(ranked.map(\.score) == [1.0, 2 / 8.0.squareRoot(), 0.5])
        #expect(ranked.map(\.failedExecuting) == [2, 2, 1])
        #expect(ranked.map(\.passedExecuting) == [0, 2, 1])
    }

    @Test("equal scores: more failing tests first, then file and line")
    func ties() {
        // Of 7 failing tests: a.py:20 is run by 4 of them and 12 passing ones, 4/sqrt(7*16);
        // a.py:10, c.py:3 and c.py:5 by one failing test only, 1/sqrt(7*1): the same number.
        var tests = (1...4).map { Self.run("f\($0)", .failed, $0 == 1 ? [10, 20] : [20]) }
        tests += (1...12).map { Self.run("p\($0)", .passed, [20]) }
        tests.append(Self.run("f5", .failed, [7], file: "b.py"))
        tests.append(Self.run("f6", .failed, [7], file: "b.py"))
        tests.append(Self.run("f7", .failed, [5, 3], file: "c.py"))
        let ranked = Ochiai.rank(TestSpectrum(tests: tests))
        #expect(ranked.map { "\($0.file):\($0.line)" } == ["b.py:7", "a.py:20", "a.py:10", "c.py:3", "c.py:5"])
        #expect(ranked[0].score == 2 / 14.0.squareRoot())
        #expect(Set(ranked.dropFirst().map(\.score)) == [1 / 7.0.squareRoot()])
        #expect(Ochiai.score(failedExecuting: 4, passedExecuting: 12, totalFailed: 4) == 0.5)
    }

    @Test("errors count as failing; without failing tests nothing is suspicious")
    func outcomes() {
        let withError = TestSpectrum(tests: [Self.run("e", .error, [5]), Self.run("p", .passed, [5, 6])])
        #expect(Ochiai.rank(withError).map(\.line) == [5])
        #expect(Ochiai.rank(withError).first?.score == 1 / 2.0.squareRoot())
        let allPass = TestSpectrum(tests: [Self.run("p", .passed, [1]), Self.run("s", .skipped, [1])])
        #expect(Ochiai.rank(allPass).isEmpty)
        #expect(Ochiai.score(failedExecuting: 0, passedExecuting: 3, totalFailed: 2) == 0)
    }
}
