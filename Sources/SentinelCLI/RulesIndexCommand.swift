import ArgumentParser
import CLICore
import Foundation
import SAST
import Support

/// `sentinel rules index`: writes the rule index a scan uses to leave unread the shipped rules
/// that cannot match its tree (``RuleIndex``), or checks that the committed one is current.
struct RulesIndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Write the rule directory's index (\(RuleIndex.fileName)), or check that it is current.",
        discussion: "Exit status: 0 written or current, 1 stale (--check), 2 a rule file is invalid.")

    @Argument(help: "Rule directory (default: the shipped rules).") var directory: String?

    @Flag(help: "Check that the index is current instead of writing it.") var check = false

    func run() throws {
        guard let directory = directory ?? RuleLocations.standard().first else {
            throw SentinelError(.invalidInput, "no rule directory found")
        }
        let generated = try RuleIndex.generate(directory: directory).encoded()
        let path = URL(fileURLWithPath: directory).appendingPathComponent(RuleIndex.fileName).path
        if check {
            let committed = try? BoundedFile.read(path, limit: 16 << 20, followLinks: false)
            guard committed.map({ [UInt8]($0) == generated }) == true else {
                Console.error("\(path): stale or missing; run `sentinel rules index \(directory)`")
                throw ExitCode(1)
            }
            Console.out("\(path): current")
            return
        }
        try PreparedOutputFile(path: path).write(Data(generated))
        Console.out("wrote \(path)")
    }
}
