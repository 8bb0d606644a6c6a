import ArgumentParser
import CLICore
import Sandbox
import ScanCore

/// `sentinel sandbox profiles`: the profiles this installation knows.
struct SandboxProfilesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "profiles", abstract: "List sandbox profiles.")

    func run() throws {
        let store = ProfileStore.standard(syntax: .yaml)
        var rows: [[String]] = [["NAME", "WORKSPACE", "NETWORK", "DESCRIPTION"]]
        var broken = false
        for entry in store.list() {
            do {
                let profile = try ProfileLoader.load(path: entry.path, syntax: .yaml)
                rows.append([
                    profile.name, profile.filesystem.workspace.rawValue, profile.network.mode.rawValue,
                    profile.description,
                ])
            } catch {
                rows.append([entry.name, "-", "-", "invalid: \(error)"])
                broken = true
            }
        }
        if rows.count == 1 {
            let builtIn = Profile.minimal
            rows.append([
                builtIn.name, builtIn.filesystem.workspace.rawValue, builtIn.network.mode.rawValue,
                builtIn.description + " (built in)",
            ])
        }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let cells = (0..<3).map { row[$0].padding(toLength: widths[$0] + 2, withPad: " ", startingAt: 0) }
            Console.out(cells.joined() + row[3])
        }
        if broken { throw ExitCode(2) }
    }
}
