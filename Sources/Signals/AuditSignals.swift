import Documents

/// Vulnerable dependencies reported outside Sentinel: pip-audit's JSON
/// (`{"dependencies": [{"name", "version", "vulns": [{"id", "fix_versions", "aliases"}]}]}`) and
/// a single SCA finding object (`{"package", "version"|"installed", "fixed"|"fix_versions",
/// "id"|"advisory", "ecosystem", "manifest"}`), one signal per vulnerability.
enum AuditSignals {
    /// The signals in `root`, or nil when it is neither shape.
    static func signals(_ root: DocumentNode) -> [Signal]? {
        if let dependencies = root["dependencies"]?.elements, root["dependencies"]?.isArray == true {
            var signals: [Signal] = []
            for dependency in dependencies {
                guard let name = dependency["name"]?.string, let version = dependency["version"]?.scalarText else { continue }
                for vulnerability in dependency["vulns"]?.elements ?? [] {
                    signals.append(
                        signal(
                            package: name, installed: version, ecosystem: "PyPI",
                            fixed: (vulnerability["fix_versions"]?.elements ?? []).compactMap(\.scalarText),
                            advisories: [vulnerability["id"]?.string ?? "unknown"]
                                + (vulnerability["aliases"]?.elements ?? []).compactMap(\.string),
                            manifest: nil, summary: vulnerability["description"]?.string))
                }
            }
            return signals
        }
        guard let package = (root["package"] ?? root["name"])?.string,
            let installed = (root["installed"] ?? root["version"] ?? root["installedVersion"])?.scalarText
        else { return nil }
        let fixedNode = root["fixed"] ?? root["fix_versions"] ?? root["fixedVersions"]
        let fixed =
            fixedNode?.isArray == true ? (fixedNode?.elements ?? []).compactMap(\.scalarText) : fixedNode?.scalarText.map { [$0] } ?? []
        let advisory = (root["advisory"] ?? root["id"])?.string ?? "unknown"
        let aliases = (root["aliases"]?.elements ?? []).compactMap(\.string)
        return [
            signal(
                package: package, installed: installed, ecosystem: root["ecosystem"]?.string ?? "PyPI", fixed: fixed,
                advisories: [advisory] + aliases, manifest: root["manifest"]?.string, summary: root["summary"]?.string)
        ]
    }

    private static func signal(
        package: String, installed: String, ecosystem: String, fixed: [String], advisories: [String], manifest: String?,
        summary: String?
    ) -> Signal {
        let fix = fixed.isEmpty ? "no fixed version is published" : "fixed in \(fixed.joined(separator: ", "))"
        return Signal(
            kind: .vulnerableDependency, source: "sca",
            message: "\(package) \(installed) is affected by \(advisories[0])\(summary.map { ": \($0)" } ?? ""); \(fix)",
            locations: manifest.map { [Signal.Location(file: $0)] } ?? [], ruleId: advisories[0],
            dependency: Signal.Dependency(
                ecosystem: ecosystem, package: package, installed: installed, fixedVersions: fixed, manifest: manifest,
                advisories: advisories))
    }
}
