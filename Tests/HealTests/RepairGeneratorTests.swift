import Git
import Heal
import Support
import Testing

/// Proposes fixed edits, whatever the line: for checking what the generator does with them.
struct FixedTemplate: RepairTemplate {
    let name: String
    let prior: Double
    let edits: [RepairEdit]

    func candidates(in file: RepairFile, line: Int) -> [RepairEdit] { edits }
}

@Suite("Repair generator")
struct RepairGeneratorTests {
    static let source = """
        # Pricing rules.
        def discount(total,member):   # odd spacing stays
            rate=0
            if   member and total>100 :  # note
                rate = 10   # ten percent
            return total-total*rate//100

        """

    @Test("a candidate changes its own bytes only: spacing and comments stay")
    func keepsFormatting() throws {
        let made = try RepairGenerator().candidates(
            path: "shop/pricing.py", source: Self.source, suspicious: [SuspiciousLine(file: "shop/pricing.py", line: 4, score: 1)])
        let fix = try #require(made.first { $0.description == "line 4: `>` → `>=`" })
        #expect(
            fix.change
                == FileChange(
                    path: "shop/pricing.py", before: Self.source,
                    after: Self.source.replacingOccurrences(of: "total>100", with: "total>=100")))
        #expect(fix.size == 1)
        let negated = try #require(made.first { $0.template == "negate-condition" })
        #expect(negated.change.after?.contains("    if   not (member and total>100) :  # note\n") == true)
        #expect(negated.size == 6)
        for candidate in made {
            let before = Self.source.split(separator: "\n", omittingEmptySubsequences: false)
            let after = (candidate.change.after ?? "").split(separator: "\n", omittingEmptySubsequences: false)
            // Templates on line 4 change line 4 only (a guard inserts lines before it).
            if candidate.template != "missing-guard" {
                #expect(before.count == after.count)
                #expect(zip(before, after).enumerated().allSatisfy { $0.offset == 3 || $0.element.0 == $0.element.1 })
            }
        }
    }

    @Test("candidates that do not parse, change nothing or overlap are dropped")
    func dropsInvalid() throws {
        let source = "x = 1\n"
        let template = FixedTemplate(
            name: "fixed", prior: 1,
            edits: [
                RepairEdit(line: 1, edits: [SourceEdit(start: 4, end: 5, replacement: "if")], description: "broken"),
                RepairEdit(line: 1, edits: [SourceEdit(start: 4, end: 5, replacement: "1")], description: "no-op"),
                RepairEdit(
                    line: 1, edits: [SourceEdit(start: 0, end: 3, replacement: "y"), SourceEdit(start: 2, end: 4, replacement: "")],
                    description: "overlap"),
                RepairEdit(line: 1, edits: [SourceEdit(start: 4, end: 99, replacement: "2")], description: "outside"),
                RepairEdit(line: 1, edits: [SourceEdit(start: 4, end: 5, replacement: "2")], description: "good"),
            ])
        let made = try RepairGenerator(templates: [template]).candidates(
            path: "m.py", source: source, suspicious: [SuspiciousLine(file: "m.py", line: 1, score: 0.5)])
        #expect(made.map(\.description) == ["good"])
        #expect(made.first?.change.after == "x = 2\n")
        #expect(made.first?.score == 0.5)
    }

    @Test("each step down a template's own ranking lowers the score by rankDecay")
    func rankWeighs() throws {
        let template = FixedTemplate(
            name: "fixed", prior: 0.5,
            edits: [
                RepairEdit(line: 1, edits: [SourceEdit(start: 4, end: 5, replacement: "3")], description: "third", rank: 2),
                RepairEdit(line: 1, edits: [SourceEdit(start: 4, end: 5, replacement: "2")], description: "first"),
            ])
        let made = try RepairGenerator(templates: [template]).candidates(
            path: "m.py", source: "x = 1\n", suspicious: [SuspiciousLine(file: "m.py", line: 1, score: 0.8)])
        #expect(made.map(\.description) == ["first", "third"])
        #expect(made.map(\.rank) == [0, 2])
        #expect(RepairGenerator.rankWeight(0) == 1)
        #expect(RepairGenerator.rankWeight(2) == RepairGenerator.rankDecay * RepairGenerator.rankDecay)
        #expect(made.map(\.score) == [0.8 * 0.5, 0.8 * 0.5 * RepairGenerator.rankWeight(2)])
    }

    @Test("the same resulting file is proposed once, by the best-scored template")
    func deduplicates() throws {
        // `count = 0` → `count = 1`: both off-by-one (0.8) and initial-value (0.6) propose it.
        let made = try RepairGenerator(templates: [InitialValueTemplate(), OffByOneTemplate()]).candidates(
            path: "m.py", source: "count = 0\n", suspicious: [SuspiciousLine(file: "m.py", line: 1, score: 1)])
        #expect(made.map(\.description) == ["line 1: `0` → `1`", "line 1: `0` → `-1`"])
        #expect(made.map(\.template) == ["off-by-one", "off-by-one"])
        #expect(Set(made.map(\.change.after)).count == made.count)
    }

    @Test("ordered by score, then size, then description; capped by the limit")
    func ordering() throws {
        let source = "def f(a, b):\n    c = a + b\n    return c < b\n"
        let suspicious = [
            SuspiciousLine(file: "m.py", line: 2, score: 1.0), SuspiciousLine(file: "m.py", line: 3, score: 0.5),
            SuspiciousLine(file: "other.py", line: 1, score: 1.0),
        ]
        let made = try RepairGenerator().candidates(path: "m.py", source: source, suspicious: suspicious, limit: 500)
        #expect(made.count > 10)
        #expect(Set(made.map(\.line)) == [2, 3])
        let keys = made.map { (-$0.score, $0.size, $0.description) }
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 <= $1 })
        // Line 2's arithmetic swap (1.0 × 0.7) beats line 3's comparison swap (0.5 × 0.9).
        #expect(made.first?.description == "line 2: `+` → `-`")
        let comparison = try #require(made.firstIndex { $0.description == "line 3: `<` → `<=`" })
        #expect(comparison == 1)
        let capped = try RepairGenerator().candidates(path: "m.py", source: source, suspicious: suspicious, limit: 3)
        #expect(capped == Array(made.prefix(3)))
    }

    @Test("across files: the top lines of each file, files that are missing or do not parse left out")
    func acrossFiles() throws {
        let sources = ["a.py": "x = y < 3\n", "b.py": "def (:\n", "c.py": "z = p > q\n"]
        let suspicious = [
            SuspiciousLine(file: "a.py", line: 1, score: 0.9), SuspiciousLine(file: "b.py", line: 1, score: 0.8),
            SuspiciousLine(file: "gone.py", line: 1, score: 0.7), SuspiciousLine(file: "c.py", line: 1, score: 0.6),
        ]
        let made = try RepairGenerator(templates: [ComparisonOperatorTemplate()]).candidates(
            sources: sources, suspicious: suspicious, top: 4, limit: 10)
        #expect(
            made.map { "\($0.change.path) \($0.description)" } == [
                "a.py line 1: `<` → `<=`", "a.py line 1: `<` → `>`", "c.py line 1: `>` → `<`", "c.py line 1: `>` → `>=`",
            ])
        let topOne = try RepairGenerator(templates: [ComparisonOperatorTemplate()]).candidates(
            sources: sources, suspicious: suspicious, top: 1)
        #expect(Set(topOne.map(\.change.path)) == ["a.py"])
    }

    @Test("a file that does not parse is refused with invalid-input")
    func refusesUnparsable() {
        #expect { try RepairGenerator().candidates(path: "m.py", source: "def (:\n", suspicious: []) } throws: {
            ($0 as? SentinelError)?.code == .invalidInput
        }
    }
}
