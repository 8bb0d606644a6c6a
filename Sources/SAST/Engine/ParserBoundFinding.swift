import Findings
import SyntaxTree

/// A file the parser's bounds stopped (nesting depth, expression chain length), one the scan
/// would analyse that is larger than `--max-file-size` (issue 76, H3: appending a 5 MB comment
/// turned a critical finding green), or one whose analysis passed its work budget (issue 77:
/// `--max-file-work`): its interpreter may well run it, so it is a finding, never
/// a silently skipped file, and a high one: the default gate fails closed on it (a crafted file
/// could otherwise hide a critical route from a CI gating on `high`). A syntax error is not
/// one: CPython runs no file it cannot parse.
public enum ParserBoundFinding {
    /// The rule findings of this kind carry.
    public static let descriptor = RuleDescriptor(
        id: "sentinel.file-not-analysed", name: "file-not-analysed",
        shortDescription: "A source file exceeds the parser's bounds, the scan's size limit or its work budget and was not analysed",
        fullDescription:
            "The file nests deeper, or chains more operations, than Sentinel's parser accepts (bounds that keep a hostile file from exhausting the stack), is larger than --max-file-size, or costs its analysis more work than --max-file-work allows. Its interpreter may run it anyway, so what was not checked may hold anything. Split the expression or the file, raise the limit, exclude the file if it is generated, or review it by hand.",
        defaultSeverity: .high, tags: ["coverage"], precision: .high)

    /// The finding for `error` when it is a bound that was hit (nesting, size, ambiguity the
    /// parser gave up on); nil for other syntax errors: an interpreter runs no file it cannot
    /// parse, but it runs one deeper or larger than the parser reads.
    static func finding(for error: SourceReadError) -> Finding? {
        guard error.code == .boundHit else { return nil }
        return finding(file: error.file, line: error.line, message: "\(error.message); \(error.runtime) may still run this file")
    }

    /// The finding for `file`, which the scan would analyse (code, a script, configuration) but
    /// which is larger than `--max-file-size` (`reason` says by how much); about the whole file,
    /// so that `--since` keeps it whenever the file changed. `tool`: the scanner that skipped it.
    public static func oversized(file: String, reason: String, tool: ToolName) -> Finding {
        Finding(
            ruleId: descriptor.id, tool: tool, severity: .high, confidence: .high,
            message: "not analysed: \(reason); raise --max-file-size, or exclude the file if it is generated",
            location: Location(file: file))
    }

    /// The finding for `file`, whose analysis passed its work budget of `budget` units
    /// (``WorkMeter``, `--max-file-work`) in `phase` (`taint analysis (rule R)`, ...) and was
    /// stopped there. About the whole file, like ``oversized(file:reason:tool:)``. What the rules
    /// that finished before it found is kept beside it: each of those analyses was whole.
    public static func workBudget(file: String, budget: Int, phase: String) -> Finding {
        Finding(
            ruleId: descriptor.id, severity: .high, confidence: .high,
            message:
                "not analysed: work budget of \(budget) units exceeded during \(phase); the rest of the file was not checked "
                + "(findings made before it are kept); raise --max-file-work, or exclude the file if it is generated",
            location: Location(file: file))
    }

    /// The high finding at `line` of `file`, whatever language's parser stopped.
    private static func finding(file: String, line: Int, message: String) -> Finding {
        Finding(
            ruleId: descriptor.id, severity: .high, confidence: .high, message: "not analysed: \(message)",
            location: Location(file: file, startLine: line))
    }
}
