import ArgumentParser
import CLICore
import SAST
import Support

/// `sentinel rules compile`: writes this build's rule pack beside the rules (``RulePack``), so
/// that scans take the rules' documents and pattern trees from it instead of reading YAML and
/// lowering patterns. `make` runs it after building; without a pack scans are slower, not
/// different.
struct RulesCompileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compile",
        abstract: "Write this build's compiled rule pack beside the rules (scans then start faster).",
        discussion:
            "Exit status: 0 written, 1 the pack cannot be written (no build ID, a directory not writable), 2 a rule file is invalid.")

    @Argument(help: "Rule directory (default: the shipped rules).") var directory: String?

    func run() throws {
        guard let directory = directory ?? RuleLocations.standard().first else {
            throw SentinelError(.invalidInput, "no rule directory found")
        }
        Console.out("wrote \(try RulePack.write(directory: directory))")
    }
}
