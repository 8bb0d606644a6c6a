import Findings
import SyntaxTree

/// A file the parser's bounds stopped (nesting depth, expression chain length), or one the scan
/// would analyse that is larger than `--max-file-size` (issue 76, H3: appending a 5 MB comment
/// turned a critical finding green): its interpreter may well run it, so it is a finding, never
/// a silently skipped file, and a high one: the default gate fails closed on it (a crafted file
/// could otherwise hide a critical route from a CI gating on `high`). A syntax error is not
/// one: CPython runs no file it cannot parse.
public enum ParserBoundFinding {
    /// The rule findings of this kind carry.
    public static let descriptor = RuleDescriptor(
        id: "sentinel.file-not-analysed", name: "file-not-analysed",
        shortDescription: "A source file exceeds the parser's bounds or the scan's size limit and was not analysed",
        fullDescription:
            "The file nests deeper, or chains more operations, than Sentinel's parser accepts (bounds that keep a hostile file from exhausting the stack), or is larger than --max-file-size. Its interpreter may run it anyway, so nothing in it was checked. Split the expression, raise --max-file-size, exclude the file if it is generated, or review it by hand.",
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

    /// The high finding at `line` of `file`, whatever language's parser stopped.
    private static func finding(file: String, line: Int, message: String) -> Finding {
        Finding(
            ruleId: descriptor.id, severity: .high, confidence: .high, message: "not analysed: \(message)",
            location: Location(file: file, startLine: line))
    }
}
