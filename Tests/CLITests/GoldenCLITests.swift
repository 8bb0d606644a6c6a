import ArgumentParser
import Foundation
import SentinelCLI
import Testing

/// The exact text of every command's `--help` and of the usage errors, one file per case under
/// `Tests/CLITests/Golden/` (excluded from the target's sources). Help is compared on stdout
/// (status 0), a usage error on stderr (status 2); the other stream must be empty.
///
/// After an intended change, regenerate the files and review the diff:
///
///     SENTINEL_UPDATE_GOLDEN=1 swift test --skip-build --filter GoldenCLITests
///     git diff Tests/CLITests/Golden
@Suite struct GoldenCLITests {
    struct Case: Sendable, CustomTestStringConvertible {
        /// The file name under `Golden/`, without `.txt`.
        let golden: String
        let arguments: [String]
        /// 0 for help (compared on stdout), 2 for a usage error (compared on stderr).
        let status: Int32

        var testDescription: String { golden }
    }

    /// `--help` of every command and subcommand.
    static let help: [Case] = [
        [], ["scan"], ["rules"], ["rules", "list"], ["rules", "test"], ["rules", "index"], ["rules", "compile"], ["db"], ["db", "import"],
        ["db", "update"],
        ["config"],
        ["config", "show"], ["init"],
        ["db", "status"], ["sandbox"], ["sandbox", "run"], ["sandbox", "profiles"], ["sandbox", "check"], ["doctor"],
        ["heal"], ["memory"], ["memory", "list"], ["memory", "show"], ["memory", "forget"], ["memory", "key"], ["audit"],
        ["audit", "verify"], ["proposals"], ["proposals", "list"], ["proposals", "show"], ["proposals", "approve"],
        ["proposals", "deny"], ["dast-worker"], ["fleet"], ["fleet", "submit"], ["fleet", "submit", "scan"],
        ["fleet", "submit", "heal"], ["fleet", "submit", "dast"], ["fleet", "submit", "noop"], ["fleet", "worker"], ["fleet", "status"],
        ["fleet", "jobs"], ["fleet", "results"], ["fleet", "history"], ["fleet", "cancel"], ["fleet", "approve"], ["fleet", "deny"],
        ["fleet", "show"], ["fleet", "init-db"], ["fleet", "audit"],
        ["fleet", "audit", "verify"], ["fleet", "schedule"],
        ["fleet", "schedule", "add"],
        ["fleet", "schedule", "list"], ["fleet", "schedule", "remove"], ["fleet", "schedule", "run"], ["fleet", "retry"],
        ["fleet", "delete"], ["fleet", "prune"],
    ].map { path in
        Case(golden: "help-" + (["sentinel"] + path).joined(separator: "-"), arguments: path + ["--help"], status: 0)
    }

    /// ArgumentParser's and the commands' own validation, before anything runs.
    static let usage: [Case] = [
        Case(golden: "usage-unknown-option", arguments: ["scan", "--bogus"], status: 2),
        Case(golden: "usage-unknown-subcommand", arguments: ["frobnicate"], status: 2),
        Case(golden: "usage-missing-value", arguments: ["scan", "--format"], status: 2),
        Case(golden: "usage-bad-format", arguments: ["scan", "--format", "xml"], status: 2),
        // heal's and proposals' --format: the same usage error as scan's (issue 57).
        Case(
            golden: "usage-heal-bad-format",
            arguments: ["heal", "--signal", "-", "--repo", ".", "--verify", "true", "--format", "xml"], status: 2),
        Case(golden: "usage-proposals-list-bad-format", arguments: ["proposals", "list", "--format", "xml"], status: 2),
        Case(golden: "usage-bad-fail-on", arguments: ["scan", "--fail-on", "sever"], status: 2),
        Case(golden: "usage-fail-on-unknown", arguments: ["scan", "--fail-on", "unknown"], status: 2),
        Case(golden: "usage-bad-severity", arguments: ["scan", "--severity", "urgent"], status: 2),
        Case(golden: "usage-bad-min-confidence", arguments: ["scan", "--min-confidence", "certain"], status: 2),
        Case(golden: "usage-bad-tools-entry", arguments: ["scan", "--tools", "native,nope"], status: 2),
        Case(golden: "usage-sandbox-run-without-command", arguments: ["sandbox", "run"], status: 2),
        Case(golden: "usage-sandbox-run-bad-size", arguments: ["sandbox", "run", "--memory", "lots", "--", "true"], status: 2),
        Case(golden: "usage-sandbox-run-bad-pids", arguments: ["sandbox", "run", "--pids", "0", "--", "true"], status: 2),
        Case(golden: "usage-db-import-without-paths", arguments: ["db", "import"], status: 2),
        // Options once strings checked by hand, now typed: ArgumentParser's usage error (issue 57).
        Case(
            golden: "usage-heal-bad-level",
            arguments: ["heal", "--signal", "-", "--repo", ".", "--verify", "true", "--level", "boss"], status: 2),
        Case(golden: "usage-proposals-list-bad-status", arguments: ["proposals", "list", "--status", "open"], status: 2),
        Case(golden: "usage-audit-verify-bad-expect-head", arguments: ["audit", "verify", "--expect-head", "x"], status: 2),
        Case(golden: "usage-scan-bad-max-duration", arguments: ["scan", "--max-duration", "soon"], status: 2),
        Case(golden: "usage-scan-bad-max-db-age", arguments: ["scan", "--max-db-age", "soon"], status: 2),
        Case(golden: "usage-scan-bad-dast-checks", arguments: ["scan", "--dast-checks", "sqli,-nosuch"], status: 2),
        Case(golden: "usage-scan-bad-max-file-size", arguments: ["scan", "--max-file-size", "5X"], status: 2),
        Case(golden: "usage-config-show-bad-max-db-age", arguments: ["config", "show", "--max-db-age", "soon"], status: 2),
        Case(golden: "usage-fleet-worker-bad-lease", arguments: ["fleet", "worker", "--lease", "0s"], status: 2),
        Case(golden: "usage-fleet-worker-bad-job-timeout", arguments: ["fleet", "worker", "--job-timeout", "soon"], status: 2),
        Case(golden: "usage-fleet-worker-bad-drain", arguments: ["fleet", "worker", "--drain", "soon"], status: 2),
        Case(golden: "usage-fleet-worker-bad-retry-base", arguments: ["fleet", "worker", "--retry-base", "soon"], status: 2),
        Case(
            golden: "usage-fleet-schedule-add-bad-every", arguments: ["fleet", "schedule", "add", "nightly", ".", "--every", "often"],
            status: 2),
        Case(
            golden: "usage-fleet-submit-heal-bad-await-approval",
            arguments: ["fleet", "submit", "heal", "--signal", "s", "--repo", ".", "--verify", "true", "--await-approval", "soon"],
            status: 2),
        Case(golden: "usage-fleet-results-bad-since", arguments: ["fleet", "results", "1", "--since", "yesterday"], status: 2),
        Case(golden: "usage-fleet-worker-bad-retry", arguments: ["fleet", "worker", "--retry", "checkout=often"], status: 2),
        Case(golden: "usage-fleet-jobs-bad-since", arguments: ["fleet", "jobs", "--since", "yesterday"], status: 2),
        Case(golden: "usage-fleet-prune-bad-older-than", arguments: ["fleet", "prune", "--older-than", "soon"], status: 2),
        Case(golden: "usage-fleet-retry-all-unconfirmed", arguments: ["fleet", "retry", "--all", "--state", "dead"], status: 2),
    ]

    static let goldenDirectory = CLI.packageRoot + "/Tests/CLITests/Golden"

    /// `docs/cli.md`, the CLI reference: every command's help as the golden files hold it, in the
    /// order of `help` (so it is regenerated with them and can never disagree with the binary).
    static func cliReference() throws -> String {
        var text = "# Command-line reference\n\nEvery command's `--help`, as `sentinel COMMAND --help` prints it at 80 columns.\n"
        text += "Generated from `Tests/CLITests/Golden/` (`SENTINEL_UPDATE_GOLDEN=1 swift test --filter GoldenCLITests`).\n"
        for golden in help {
            let command = (["sentinel"] + golden.arguments.dropLast()).joined(separator: " ")
            let body = try String(contentsOfFile: "\(goldenDirectory)/\(golden.golden).txt", encoding: .utf8)
            text += "\n## \(command)\n\n```\n" + body + (body.hasSuffix("\n") ? "" : "\n") + "```\n"
        }
        return text
    }

    @Test func theCLIReferenceIsEveryCommandsHelp() throws {
        let path = CLI.packageRoot + "/docs/cli.md"
        if ProcessInfo.processInfo.environment["SENTINEL_UPDATE_GOLDEN"] == "1" {
            try Self.cliReference().write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.cliReference(), "regenerate with SENTINEL_UPDATE_GOLDEN=1")
    }

    @Test(arguments: help + usage)
    func matchesGolden(_ golden: Case) throws {
        // A fixed width: ArgumentParser wraps help to the terminal's (COLUMNS) width.
        let environment = ["PATH": "/usr/bin:/bin", "COLUMNS": "80", "LINES": "24"]
        let result = try CLI.run(golden.arguments, environment: environment)
        let (compared, other) = golden.status == 0 ? (result.stdout, result.stderr) : (result.stderr, result.stdout)
        let path = "\(Self.goldenDirectory)/\(golden.golden).txt"
        if ProcessInfo.processInfo.environment["SENTINEL_UPDATE_GOLDEN"] == "1" {
            try compared.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOfFile: path, encoding: .utf8)
        #expect(result.status == golden.status, "\(result.stderr)")
        #expect(compared == expected)
        #expect(other.isEmpty, "\(other)")
    }

    /// A new subcommand needs a help golden file.
    @Test func everyCommandHasAHelpCase() {
        func paths(_ command: any ParsableCommand.Type, _ prefix: [String]) -> [[String]] {
            [prefix]
                + command.configuration.subcommands.flatMap { sub in
                    paths(sub, prefix + [sub.configuration.commandName ?? ""])
                }
        }
        let covered = Set(Self.help.map { Array($0.arguments.dropLast()) })
        #expect(Set(paths(Sentinel.self, [])) == covered)
    }

    /// Each option states its default once: a hand-written "(default: X)" next to the one
    /// ArgumentParser adds for a property with an initial value read "(default: 100). (default: 100)".
    @Test(arguments: help)
    func statesEachDefaultOnce(_ golden: Case) throws {
        let environment = ["PATH": "/usr/bin:/bin", "COLUMNS": "80", "LINES": "24"]
        let result = try CLI.run(golden.arguments, environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        // One entry per option or argument: its lines joined, the wrapping undone.
        var entries: [String] = []
        for line in result.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
            let text = line.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("  ") && !line.hasPrefix("                  ") || entries.isEmpty {
                entries.append(text)
            } else {
                entries[entries.count - 1] += " " + text
            }
        }
        for entry in entries {
            let count = entry.components(separatedBy: "(default:").count - 1
            #expect(count <= 1, "\(golden.golden): \(entry)")
        }
    }
}
