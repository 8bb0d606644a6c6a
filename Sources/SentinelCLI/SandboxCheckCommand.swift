import ArgumentParser
import CLICore
import Sandbox
import ScanCore
import Support

/// `sentinel sandbox check PROFILE`: validates a profile and shows what it would build.
struct SandboxCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a profile and show its sandbox plan.")

    @Argument(help: "Profile name or path.")
    var profile: String

    @Flag(name: .long, help: "Also print every filesystem operation of the plan.")
    var verbose = false

    func run() throws {
        let loaded = try ProfileStore.standard(syntax: .yaml).resolve(profile)
        let program = try SeccompProgram.forProfile(loaded.seccomp)
        // Shown with the root launcher's mount point, where every run mounts its own root.
        let plan = try LaunchPlan.make(
            LaunchRequest(profile: loaded, command: ["/bin/true"]), newRoot: NewRootDirectory.rootMountPoint)
        let limits = loaded.limits
        Console.out("profile \(loaded.name): ok")
        Console.out("  workspace   \(loaded.filesystem.workspace.rawValue)")
        Console.out("  read-only   \(loaded.filesystem.readOnly.joined(separator: " "))")
        Console.out("  hidden      \(loaded.filesystem.hidden.joined(separator: " "))")
        Console.out(
            "  network     \(loaded.network.mode.rawValue)\(loaded.network.allow.isEmpty ? "" : " allow " + loaded.network.allow.joined(separator: " "))"
        )
        switch loaded.seccomp {
        case .default: Console.out("  seccomp     default deny-list (\(program?.instructionCount ?? 0) BPF instructions)")
        case .oci(let path): Console.out("  seccomp     \(path) (\(program?.instructionCount ?? 0) BPF instructions)")
        case .disabled: Console.out("  seccomp     DISABLED — the payload can reach the whole kernel API")
        case .defaultWithOpenat2:
            Console.out("  seccomp     built-in, openat2 allowed (\(program?.instructionCount ?? 0) BPF instructions)")
        }
        Console.out(
            "  limits      memory \(limits.memoryBytes.map(String.init) ?? "-") pids \(limits.pids.map(String.init) ?? "-") cpus \(limits.cpus.map { "\($0)" } ?? "-") timeout \(limits.timeoutSeconds.map { "\($0)s" } ?? "-") workspace-size \(limits.workspaceSizeBytes.map(String.init) ?? "-")"
        )
        Console.out("  identity    uid \(loaded.uid) gid \(loaded.gid), \(plan.filesystem.count) filesystem steps")
        if verbose {
            for op in plan.filesystem { Console.out("    \(op)") }
        }
    }
}
