import ArgumentParser
import CLICore
import Foundation
import Heal
import Store
import Support

/// `sentinel memory`: what heal remembers (attempts and lessons per signal).
struct MemoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memory", abstract: "List, show or forget what heal remembers.",
        subcommands: [MemoryListCommand.self, MemoryShowCommand.self, MemoryForgetCommand.self, MemoryKeyCommand.self])
}

struct MemoryListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "One line per remembered attempt, newest first.")

    func run() throws {
        let memory = try HealMemory(state: StateLocation.current())
        let records = try memory.list()
        if records.isEmpty { Console.out("heal memory is empty (\(memory.path))") }
        for record in records {
            Console.out(
                "\(record.id)\t\(record.created)\t\(record.verdict.rawValue)\t\(record.actor)\t\(record.fingerprint)\t\(record.description)"
            )
        }
    }
}

struct MemoryShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "One remembered attempt in full.")
    @Argument(help: "The record id (from memory list).") var id: Int64

    func run() throws {
        let memory = try HealMemory(state: StateLocation.current())
        guard let record = try memory.record(id: id) else {
            throw SentinelError(.invalidInput, "memory: no record \(id)")
        }
        var lines = [
            "id: \(record.id)", "created: \(record.created)", "signal: \(record.fingerprint) (\(record.kind))",
            "message: \(record.signalMessage)", "repository: \(record.repository ?? "(not recorded)")", "actor: \(record.actor)",
            "strategy: \(record.strategy)",
            "description: \(record.description)", "verdict: \(record.verdict.rawValue)",
        ]
        if let lesson = record.lesson { lines.append("lesson: \(lesson)") }
        lines.append("patch sha256: \(record.patchHash)")
        // The signal's message, the strategy's description and the patch quote the repository.
        Console.out(lines.map { DisplayText.escaped($0) }.joined(separator: "\n"))
        let patch = DisplayText.multiline(record.patch)
        if !patch.isEmpty { Console.text(patch.hasSuffix("\n") ? patch : patch + "\n") }
    }
}

struct MemoryForgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget", abstract: "Delete one remembered attempt (it no longer informs later heals).")
    @Argument(help: "The record id (from memory list).") var id: Int64

    func run() throws {
        let memory = try HealMemory(state: StateLocation.current())
        guard try memory.forget(id: id) else { throw SentinelError(.invalidInput, "memory: no record \(id)") }
        Console.out("forgot \(id)")
    }
}
