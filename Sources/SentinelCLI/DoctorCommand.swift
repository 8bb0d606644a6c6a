import ArgumentParser
import CLICore
import Foundation
import Heal
import Sandbox
import Scan
import Support

/// `sentinel doctor`: what this host supports, and whether a sandbox really starts.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check what this host supports.")

    func run() throws {
        let tools = ExternalToolCheck.all().map { check in
            HostSupport.Check(
                check.unavailableReason == nil ? .ok : .warn, check.tool.rawValue,
                check.unavailableReason ?? "\(check.executable) (runs in the sandbox\(check.note.map { "; \($0)" } ?? ""))")
        }
        let checks =
            HostSupport.probe(environment: ProcessInfo.processInfo.environment) + tools + [HostSupport.sandboxRuns()]
            + [Self.sweepScratch(), Self.memoryEmbeddings()]
        for check in checks { Console.out(Self.line(check)) }
        if checks.contains(where: { $0.level == .fail }) { throw ExitCode(1) }
    }

    /// Removes the snapshots heals killed with -9 left in the state's scratch directory.
    static func sweepScratch() -> HostSupport.Check {
        guard let state = try? StateLocation.current() else {
            return HostSupport.Check(.warn, "scratch", "no state directory in this environment")
        }
        // The heal's own (`tmp/`), root's for its analyses (beside the state directory, or
        // `$TMPDIR` where that cannot be lent).
        let removed = [state.scratchPath, state.launcherScratchPath, ScratchDirectory.defaultBase].reduce(0) {
            $0 + ScratchDirectory.sweep($1)
        }
        return HostSupport.Check(
            .ok, "scratch",
            removed == 0
                ? "\(state.scratchPath): nothing abandoned"
                : "removed \(removed) abandoned scratch director\(removed == 1 ? "y" : "ies") (snapshots of repositories)")
    }

    /// What heal memory compares signals with: the configured `/v1/embeddings` model, else the
    /// local embedding; a bad setting is a warning (heal itself stops on it, exit 2).
    static func memoryEmbeddings() -> HostSupport.Check {
        do {
            return HostSupport.Check(.ok, "heal memory", try SignalEmbedders.summary(environment: ProcessInfo.processInfo.environment))
        } catch {
            return HostSupport.Check(.warn, "heal memory", "\(error)")
        }
    }

    /// `ok    kernel          6.18.0`: the level in a fixed-width column (failures in capitals).
    static func line(_ check: HostSupport.Check) -> String {
        let level: String
        switch check.level {
        case .ok: level = "ok  "
        case .warn: level = "warn"
        case .fail: level = "FAIL"
        }
        return "\(level)  \(check.name.padding(toLength: 16, withPad: " ", startingAt: 0))\(check.detail)"
    }
}
