import ArgumentParser
import Testing

@testable import SentinelCLI

/// `SentinelMain.parse` reads a `scan` or `heal` line against that command alone (the whole
/// tree's argument sets cost 3 % of a small scan's CPU, twice). These check it is the same parse:
/// the same values where the tree accepts a line, the tree's own text and status where it does not.
@Suite struct LeafParseTests {
    /// Everything a parsed command holds, as text: its options' values, flags and arguments.
    private static func values(_ command: any ParsableCommand) -> String {
        var text = ""
        dump(command, to: &text)
        return text
    }

    /// What the tree says about `arguments`: the values it parsed, or its error text and status.
    private static func outcome(_ parse: ([String]) throws -> any ParsableCommand, _ arguments: [String]) -> String {
        do {
            return "parsed " + values(try parse(arguments))
        } catch {
            return "refused \(Sentinel.exitCode(for: error).rawValue) " + Sentinel.fullMessage(for: error)
        }
    }

    @Test(
        "scan and heal lines parse to the same values as through the whole tree",
        arguments: [
            ["scan"], ["scan", "."], ["scan", "a", "b", "--sast", "--secrets", "--format", "json", "--output", "r.json"],
            ["scan", ".", "--fail-on", "high", "--exclude", "x/**", "--exclude=y", "-q", "--", "--weird-dir"],
            ["scan", "--tools", "bandit,semgrep", "--baseline", "b.json", "--no-default-excludes", "."],
            ["heal", "--signal", "s.txt", "--repo", "r", "--verify", "make test", "--max-attempts", "3", "--format", "json"],
        ])
    func sameValues(arguments: [String]) throws {
        let leaf = try #require(SentinelMain.leafCommand(arguments))
        let direct = try leaf.parseAsRoot(Array(arguments.dropFirst()))
        #expect(Self.values(direct) == Self.values(try Sentinel.parseAsRoot(arguments)))
        // The dump holds every option's parsed value (`--verify "make test"` shows as "make test").
        #expect(arguments.last == "." || arguments.count < 3 || Self.values(direct).contains(arguments.last!))
        #expect(Self.outcome(SentinelMain.parse, arguments) == Self.outcome(Sentinel.parseAsRoot, arguments))
    }

    @Test(
        "help, version, completion and every refused line get the tree's text and status",
        arguments: [
            ["scan", "--help"], ["scan", "-h"], ["scan", "help"], ["heal", "--help"], ["scan", "--version"],
            ["scan", "-qh"], ["scan", "-hq"], ["scan", "-help"], ["heal", "-help"], ["scan", ".", "-vh"],
            ["scan", "--generate-completion-script", "bash"], ["scan", "--no-such-option"], ["scan", "--format", "yaml"],
            ["heal", "--max-attempts", "many"], ["scan", "--fail-on"], ["help", "scan"], ["--version"], [],
        ])
    func treeTexts(arguments: [String]) {
        #expect(Self.outcome(SentinelMain.parse, arguments) == Self.outcome(Sentinel.parseAsRoot, arguments))
    }

    @Test("a line the parser answers itself is never read against the leaf alone")
    func answeredByParser() {
        for line in [
            ["scan", "--help"], ["scan", "-h"], ["heal", "help"], ["scan", "--version"], ["scan", "--generate-completion-script"],
        ] {
            #expect(SentinelMain.leafCommand(line) == nil, "\(line)")
        }
        #expect(SentinelMain.leafCommand(["fleet", "worker"]) == nil)
        #expect(SentinelMain.leafCommand(["scan", "."]) != nil)
    }
}
