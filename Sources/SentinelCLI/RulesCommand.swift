import ArgumentParser
import CLICore
import Foundation
import SAST
import Support

/// `sentinel rules`: the native rules and their tests.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules", abstract: "List the native rules or run their tests.",
        subcommands: [RulesListCommand.self, RulesTestCommand.self, RulesIndexCommand.self, RulesCompileCommand.self])
}

struct RulesListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the native rules.")

    @Argument(help: "Rule directories (default: the shipped rules).") var directories: [String] = []

    func run() throws {
        // No shipped rules is a broken install, not an empty rule set.
        let directories = directories.isEmpty ? RuleLocations.standard() : directories
        guard !directories.isEmpty else { throw SentinelError(.invalidInput, "no rule directory found (set SENTINEL_RULES)") }
        let rules = try RuleSet.load(directories: directories)
        for rule in rules.descriptors.sorted(by: { $0.id < $1.id }) {
            let cwe = rule.cwe.map { "CWE-\($0)" }.joined(separator: ",")
            Console.out(
                "\(rule.id.padding(toLength: 44, withPad: " ", startingAt: 0)) \(rule.defaultSeverity.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(cwe.padding(toLength: 10, withPad: " ", startingAt: 0)) \(rule.shortDescription)"
            )
        }
        Console.out("\(rules.descriptors.count) rules")
    }
}

struct RulesTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run every rule's test file (# ruleid: / # ok: annotations).",
        discussion: "Exit status: 0 all pass, 1 an expectation failed, 2 a rule file is invalid.")

    @Argument(help: "Rule directory (default: the shipped rules).") var directory: String?

    func run() throws {
        guard let directory = directory ?? RuleLocations.standard().first else {
            throw SentinelError(.invalidInput, "no rule directory found")
        }
        // A project's own rules may include the shipped source and sanitizer sets.
        let results = try RuleTests.run(directory: directory, setsFrom: RuleLocations.standard())
        var failed = 0
        var expectations = 0
        for result in results {
            expectations += result.expectations
            guard !result.passed else { continue }
            failed += 1
            for failure in result.failures { Console.error(failure) }
        }
        Console.out("\(results.count - failed) of \(results.count) rule test files passed (\(expectations) expectations)")
        if failed > 0 { throw ExitCode(1) }
    }
}
