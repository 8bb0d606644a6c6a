import ArgumentParser
import CLICore
import Foundation
import Heal

/// `sentinel memory key`: the key that authenticates shared heal memory, by its file and id.
struct MemoryKeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key", abstract: "Show the file and id of the key that authenticates shared heal memory.",
        discussion: """
            Fleet workers send the heal memory they share with a MAC made with this key, and use only what it \
            verifies. Every worker of a fleet needs the same key (the same id here): copy the file (mode 0600) or \
            name it with --memory-key or SENTINEL_MEMORY_KEY_FILE. Whoever may submit jobs must not be able to \
            read it. The state directory's key is made on first use.
            """)
    @Option(
        name: .customLong("memory-key"),
        help: ArgumentHelp("The key file (default: SENTINEL_MEMORY_KEY_FILE, else the state directory's memory.key).", valueName: "file"))
    var memoryKey: String?

    func run() throws {
        let (key, path) = try MemoryKey.resolve(
            file: memoryKey, environment: ProcessInfo.processInfo.environment, state: StateLocation.current())
        Console.out("file: \(path)\nid: \(key.id)")
    }
}
