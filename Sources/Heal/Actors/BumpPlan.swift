import Foundation
import SCA
import Signals

/// What raising a dependency to one version does to the package's advisories: which the
/// version clears and which stay open, from every advisory of the package in the OSV database
/// (not only the one the report named).
public struct BumpPlan: Sendable, Hashable, Codable {
    /// The package as the manifest spells it.
    public var package: String
    /// The pinned version.
    public var from: String
    /// The version it is raised to.
    public var to: String
    /// Whether `to` leaves the installed major version.
    public var majorBump: Bool
    /// Advisories affecting `from` that `to` is not affected by, sorted.
    public var clears: [String]
    /// Advisories that still affect `to`, sorted.
    public var stillOpen: [String]
    /// Why the database was not consulted (the plan then knows only the report's advisories);
    /// nil when it was.
    public var unchecked: String?

    /// A plan; see the properties.
    public init(
        package: String, from: String, to: String, majorBump: Bool, clears: [String], stillOpen: [String],
        unchecked: String? = nil
    ) {
        self.package = package
        self.from = from
        self.to = to
        self.majorBump = majorBump
        self.clears = clears
        self.stillOpen = stillOpen
        self.unchecked = unchecked
    }

    /// The plans for `dependency`, best first: the database's remedy when `databasePath` holds
    /// one, else the report's fixed versions with `unchecked` saying why.
    static func plans(for dependency: Signal.Dependency, databasePath: String?) -> [BumpPlan] {
        var reason = "no OSV database was given"
        if let databasePath {
            reason = "no OSV database at \(databasePath)"
            if FileManager.default.fileExists(atPath: databasePath) {
                do {
                    let remedy = try OSVDatabase(path: databasePath).pypiRemedy(
                        package: dependency.package, installed: dependency.installed)
                    if !remedy.options.isEmpty {
                        return remedy.options.map { option in
                            BumpPlan(
                                package: dependency.package, from: dependency.installed, to: option.version,
                                majorBump: !option.sameMajor, clears: option.clears, stillOpen: option.stillOpen)
                        }
                    }
                    reason =
                        "the OSV database at \(databasePath) names no fixed version of \(dependency.package) above \(dependency.installed)"
                } catch {
                    reason = "the OSV database at \(databasePath) could not be read: \(error)"
                }
            }
        }
        let major = PEP440Version(dependency.installed).map { PEP440Scheme().majorKey($0) }
        return DependencyBumpActor.targets(installed: dependency.installed, fixed: dependency.fixedVersions).map { version in
            BumpPlan(
                package: dependency.package, from: dependency.installed, to: version,
                majorBump: PEP440Version(version).map { PEP440Scheme().majorKey($0) } != major,
                clears: Array(dependency.advisories.prefix(1)), stillOpen: [],
                unchecked: reason)
        }
    }

    /// One line for the evidence and PR.md: what the bump clears and what stays open.
    public var summary: String {
        var text = "\(package) \(from) → \(to)\(majorBump ? " (major version bump)" : "")"
        text += clears.isEmpty ? " clears no known advisory" : " clears " + clears.joined(separator: ", ")
        if let unchecked { return text + "; other advisories of \(package) were not checked: \(unchecked)" }
        text += stillOpen.isEmpty ? "; no known advisory of \(package) stays open" : "; still open: " + stillOpen.joined(separator: ", ")
        return text
    }
}
