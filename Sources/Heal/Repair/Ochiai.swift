/// A source line with its suspiciousness: how strongly the test spectrum ties it to the failures.
public struct SuspiciousLine: Sendable, Hashable, CustomStringConvertible {
    /// Path relative to the project root.
    public var file: String
    /// 1-based line number.
    public var line: Int
    /// Suspiciousness in 0...1.
    public var score: Double
    /// How many failing tests executed the line (Ochiai's `ef`).
    public var failedExecuting: Int
    /// How many passing tests executed the line (Ochiai's `ep`).
    public var passedExecuting: Int

    /// Line `line` of `file` with suspiciousness `score`.
    public init(file: String, line: Int, score: Double, failedExecuting: Int = 0, passedExecuting: Int = 0) {
        self.file = file
        self.line = line
        self.score = score
        self.failedExecuting = failedExecuting
        self.passedExecuting = passedExecuting
    }

    /// `file:line (score)`.
    public var description: String { "\(file):\(line) (\(score))" }
}

/// Spectrum-based fault localisation with the Ochiai coefficient, which ranks better than
/// Tarantula on real faults: `ef / sqrt((ef + nf) * (ef + ep))`, where `ef`/`ep` count failing and
/// passing tests that executed the line and `nf` the failing tests that did not.
public enum Ochiai {
    /// The Ochiai suspiciousness of a line executed by `failedExecuting` of `totalFailed` failing
    /// tests and by `passedExecuting` passing tests; 0 when no failing test executed it.
    public static func score(failedExecuting ef: Int, passedExecuting ep: Int, totalFailed: Int) -> Double {
        guard ef > 0, totalFailed > 0 else { return 0 }
        // ef + nf is every failing test.
        return Double(ef) / (Double(totalFailed) * Double(ef + ep)).squareRoot()
    }

    /// Every line executed by at least one failing test, most suspicious first. Ties go to the line
    /// more failing tests executed, then by file and line, so the order is the same on every run.
    /// Skipped tests count neither way.
    public static func rank(_ spectrum: TestSpectrum) -> [SuspiciousLine] {
        var failed: [SourceLine: Int] = [:]
        var totalFailed = 0
        for test in spectrum.tests where test.outcome.isFailing {
            totalFailed += 1
            for line in test.lines { failed[line, default: 0] += 1 }
        }
        var passed: [SourceLine: Int] = [:]
        for test in spectrum.tests where test.outcome == .passed {
            for line in test.lines where failed[line] != nil { passed[line, default: 0] += 1 }
        }
        let ranked = failed.map { line, ef in
            let ep = passed[line] ?? 0
            return SuspiciousLine(
                file: line.file, line: line.line, score: score(failedExecuting: ef, passedExecuting: ep, totalFailed: totalFailed),
                failedExecuting: ef, passedExecuting: ep)
        }
        return ranked.sorted(by: isRankedBefore)
    }

    /// Higher score, then higher `ef`, then file and line ascending.
    static func isRankedBefore(_ a: SuspiciousLine, _ b: SuspiciousLine) -> Bool {
        if a.score != b.score { return a.score > b.score }
        if a.failedExecuting != b.failedExecuting { return a.failedExecuting > b.failedExecuting }
        if a.file != b.file { return a.file < b.file }
        return a.line < b.line
    }
}
