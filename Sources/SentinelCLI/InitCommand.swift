import ArgumentParser
import CLICore
import Foundation
import Sandbox
import Scan
import Support

/// `sentinel init`: sets a project up — a commented `.sentinel.yml`, the GitHub Actions workflow
/// and the pre-commit hook — from what its tree holds. Existing files are kept unless `--force`;
/// a `.pre-commit-config.yaml` of the project's is never changed (what to add is printed). As
/// root, the reading and writing is the unprivileged analysis's, on the directory lent as its owner.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write .sentinel.yml, a CI workflow and a pre-commit hook for the project in this directory.",
        discussion: "Exit status 0 when every file was written or kept; 2 when the directory cannot be set up.")

    @Argument(help: "The project's root.") var directory: String = "."
    @Flag(help: "Replace files Sentinel wrote before (never the project's .pre-commit-config.yaml).") var force = false
    @Flag(name: .customLong("no-workflow"), help: "Do not write .github/workflows/sentinel.yml.") var noWorkflow = false
    @Flag(name: .customLong("no-pre-commit"), help: "Do not set up the pre-commit hook.") var noPreCommit = false

    func run() throws {
        try AnalysisSandbox.enterStartDirectory()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SentinelError(.invalidInput, "\(directory): not a directory")
        }
        let root = OutputPlacement.realPath(directory) ?? AnalysisSandbox.absolute(directory)
        if AnalysisSandbox.applies {
            do {
                var analysis = AnalysisSandbox(
                    arguments: Array(CommandLine.arguments.dropFirst()), repository: nil,
                    workingDirectory: FileManager.default.currentDirectoryPath)
                analysis.lent = [LentDirectory(path: root, writable: true)]
                throw ExitCode(try analysis.run())
            } catch let unavailable as AnalysisSandbox.Unavailable {
                unavailable.warnRootGoesOn("writing")
            }
        }
        let setup = try ProjectSetup.detect(in: root)
        for file in setup.files(workflow: !noWorkflow, preCommit: !noPreCommit) {
            let path = root + "/" + file.path
            let output = try PreparedOutputFile(path: path, createParents: true, refusingLinksInside: [root])
            if FileManager.default.fileExists(atPath: path) && (file.shared || !force) {
                if file.shared, let text = try? TreeReader(path: root).read(file.path, limit: 1 << 20),
                    String(decoding: text, as: UTF8.self).contains("id: sentinel-scan")
                {
                    Console.out("kept \(file.path) (it runs sentinel-scan)")
                } else if file.shared {
                    Console.out("kept \(file.path) (the project's own): add this hook to it:")
                    Console.out(file.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n"))
                } else {
                    Console.out("kept \(file.path) (exists; --force replaces it)")
                }
                continue
            }
            try output.write(Data(file.text.utf8), mode: 0o644)
            Console.out("wrote \(file.path)")
        }
        let ecosystems = setup.ecosystems.isEmpty ? "" : "   # \(setup.ecosystems.joined(separator: ", ")) advisories"
        var next = [
            "sentinel db update --for .\(ecosystems)", "sentinel scan .", "sentinel config show",
        ]
        if let test = setup.testCommand {
            next.append("sentinel heal --signal sentinel.sarif --repo . --verify \"\(test)\"   # once a scan fails")
        }
        Console.out("next:\n" + next.map { "  " + $0 }.joined(separator: "\n"))
    }
}
