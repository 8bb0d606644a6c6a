import Findings
import Foundation
import ScanCore
import Support

/// Where an external tool lives in the tools venv (`<toolsDirectory>/bin/<name>`), whether it is
/// there, and what must be bound into the sandbox for it to run.
public struct ToolInstallation: Sendable, Hashable {
    /// The directory the profiles bind read-only; tools installed under it need no extra bind.
    public static let profileToolsRoot = "/opt/sentinel-tools"

    /// The executable's name (`bandit`, `semgrep`).
    public var tool: ToolName
    /// The venv (`/opt/sentinel-tools/venv`).
    public var directory: String

    /// `tool` in the venv `directory`.
    public init(tool: ToolName, directory: String) {
        self.tool = tool
        self.directory = directory
    }

    /// `<directory>/bin/<tool>`, absolute (the sandbox's working directory is `/workspace`).
    public var executable: String {
        (AdapterBinds.absolute(directory) as NSString).standardizingPath + "/bin/" + tool.rawValue
    }

    /// Why the tool cannot run, or `nil` when its executable is there.
    public var missingReason: String? {
        if FileManager.default.isExecutableFile(atPath: executable) { return nil }
        return "\(tool) is not installed (\(executable) not found; run scripts/install-tools.sh)"
    }

    /// Why the tool cannot run under `profile`: not installed, installed where the profile's
    /// tmpfs would hide it, or its venv's interpreter lies outside what the profile (plus the
    /// venv's own bind) shows. A profile that does not load is left for the run to report.
    public func unavailableReason(profile: String, context: ScanContext) -> String? {
        if let missingReason { return missingReason }
        guard let loaded = try? context.sandbox.profiles.resolve(profile) else { return nil }
        if let (path, mount) = AdapterBinds.shadowed(extraReadOnly, by: loaded.filesystem) {
            return "\(tool) is installed in \(path), which profile \(loaded.name) hides under its mount at \(mount)"
        }
        return interpreterReason(visible: loaded.filesystem.readOnly + extraReadOnly)
    }

    /// Why the venv cannot run inside a sandbox that shows only `visible` host paths: its
    /// `pyvenv.cfg` names an interpreter home outside them (a venv made by pyenv's Python, say).
    /// `nil` when the interpreter is visible or the venv has no `pyvenv.cfg`.
    public func interpreterReason(visible: [String]) -> String? {
        let config = (directory as NSString).appendingPathComponent("pyvenv.cfg")
        guard let data = try? BoundedFile.read(config, limit: 1 << 16), let text = String(data: data, encoding: .utf8)
        else { return nil }
        for line in text.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, parts[0] == "home", parts[1].hasPrefix("/") else { continue }
            let home = (parts[1] as NSString).standardizingPath
            let shown = visible.contains { home == $0 || home.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
            if shown { return nil }
            return "\(tool)'s venv \(directory) runs Python from \(home), which the sandbox does not show;"
                + " recreate it with scripts/install-tools.sh (it uses /usr/bin/python3)"
        }
        return nil
    }

    /// Paths to bind read-only so the venv is visible inside the sandbox: none when it is under
    /// `/opt/sentinel-tools` (the profiles bind it), else the venv directory (and, when that is a
    /// symbolic link, its target too: the sandbox recreates the link, not what it points to).
    public var extraReadOnly: [String] {
        AdapterBinds.outsideProfileRoots([directory], profileRoots: [Self.profileToolsRoot])
    }

    /// The installed version of Python distribution `package`, read from its `.dist-info`
    /// directory name in the venv (no process is run); `nil` when not found.
    public func packageVersion(_ package: String) -> String? {
        let lib = (directory as NSString).appendingPathComponent("lib")
        let manager = FileManager.default
        guard let pythons = try? manager.contentsOfDirectory(atPath: lib) else { return nil }
        let prefix = package.replacingOccurrences(of: "-", with: "_").lowercased() + "-"
        for python in pythons.sorted() where python.hasPrefix("python") {
            let sitePackages = "\(lib)/\(python)/site-packages"
            guard let entries = try? manager.contentsOfDirectory(atPath: sitePackages) else { continue }
            for entry in entries where entry.lowercased().hasPrefix(prefix) && entry.hasSuffix(".dist-info") {
                let version = entry.dropFirst(prefix.count).dropLast(".dist-info".count)
                if !version.isEmpty { return String(version) }
            }
        }
        return nil
    }
}
