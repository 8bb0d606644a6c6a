import Findings
import Foundation
import ScanCore

/// The host directory an adapter mounts read-only at `/workspace`: the scan root for a directory
/// scan; for named files, the deepest directory that holds every one of them, so the sandbox
/// binds only their directory (never a file, which it refuses, nor more of the tree than
/// needed). The tool's paths are relative to it; `rebased` makes them relative to the scan root.
struct AdapterWorkspace: Sendable, Hashable {
    /// Absolute host path mounted at `/workspace`.
    let host: String
    /// `host` relative to the scan root; empty when it is the root.
    let prefix: String
    /// The files to scan, relative to `host`.
    let files: [String]

    /// - Parameter files: the files the tool scans, relative to `target.root`.
    init(target: ScanTarget, files: [String]) {
        var common: [Substring]? = target.isFileList ? nil : []
        for file in files where target.isFileList {
            let directories = file.split(separator: "/").dropLast()
            guard let current = common else {
                common = Array(directories)
                continue
            }
            common = Array(zip(current, directories).prefix { $0 == $1 }.map(\.0))
        }
        let prefix = (common ?? []).joined(separator: "/")
        self.prefix = prefix
        self.host = prefix.isEmpty ? target.root : target.absolute(prefix)
        self.files = prefix.isEmpty ? files : files.map { String($0.dropFirst(prefix.count + 1)) }
    }

    /// `output` with every path made relative to the scan root (fingerprints recomputed, since
    /// they hash the path).
    func rebased(_ output: ScannerOutput) -> ScannerOutput {
        guard !prefix.isEmpty else { return output }
        var output = output
        output.findings = output.findings.map { finding in
            var copy = finding
            copy.location.file = finding.location.file.map(rebase)
            if var fix = copy.fix {
                fix.replacements = fix.replacements.map { replacement in
                    var moved = replacement
                    moved.file = replacement.file.map(rebase)
                    return moved
                }
                copy.fix = fix
            }
            copy.fingerprint = Fingerprint.compute(
                for: copy.ruleId, location: copy.location, snippet: copy.snippet,
                enclosingScope: copy.enclosingScope, message: copy.message)
            return copy
        }
        output.notices = output.notices.map { notice in
            var copy = notice
            copy.file = notice.file.map(rebase)
            return copy
        }
        return output
    }

    private func rebase(_ path: String) -> String {
        path.hasPrefix("/") ? path : prefix + "/" + path
    }
}
