import Git

/// How many of the lines a candidate adds to Python source files the project's tests executed,
/// from one run of the verify command on the patched tree under the coverage tracer. The
/// autonomy policy's risk score reads it: a change no test runs is a change nobody checked.
public struct ChangeCoverage: Sendable, Hashable, Codable {
    /// Added source lines some test executed.
    public var covered: Int
    /// Added source lines (Python files outside the tests).
    public var total: Int
    /// `file:line` of the added lines no test executed.
    public var uncovered: [String]

    /// Coverage of `covered` out of `total`; `uncovered` lists the rest.
    public init(covered: Int, total: Int, uncovered: [String]) {
        self.covered = covered
        self.total = total
        self.uncovered = uncovered
    }

    /// The share of added lines executed (1 when nothing measurable was added).
    public var fraction: Double { total == 0 ? 1 : Double(covered) / Double(total) }

    /// Coverage of `patch`'s added lines by the lines a traced run `executed`. Nil when the patch
    /// adds no line to a Python source file outside the tests (there is nothing to measure).
    public static func measure(patch: String, executed: Set<SourceLine>) -> ChangeCoverage? {
        var covered = 0
        var uncovered: [String] = []
        for (file, lines) in GitPatch.addedLines(patch).sorted(by: { $0.key < $1.key })
        where file.hasSuffix(".py") && !RegressionGuard.isTestFile(file) {
            for line in lines {
                if executed.contains(SourceLine(file: file, line: line)) {
                    covered += 1
                } else {
                    uncovered.append("\(file):\(line)")
                }
            }
        }
        let total = covered + uncovered.count
        return total == 0 ? nil : ChangeCoverage(covered: covered, total: total, uncovered: uncovered)
    }
}
