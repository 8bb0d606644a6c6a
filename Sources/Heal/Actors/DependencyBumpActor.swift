import Foundation
import Git
import SCA
import Signals

/// Raises a vulnerable dependency to the smallest version that clears every advisory of the
/// package in the OSV database (`BumpPlan`), in the manifest or lockfile the finding came from
/// (or, when the report did not say, every Python manifest in the repository that pins it).
/// Later versions follow as fallbacks in case the first one breaks the tests; when no known
/// version clears every advisory, the one leaving the fewest open comes first.
public struct DependencyBumpActor: HealActor {
    /// Dependency bumps.
    public let kind = ActorKind.dependencyBump
    /// Versions tried, best first.
    public var maxVersions = 3
    /// The OSV database whose advisories a version must clear; nil: the report's fixed versions only.
    public var databasePath: String?

    /// A bump actor judging versions against the database at `databasePath`.
    public init(databasePath: String? = nil) { self.databasePath = databasePath }

    /// Manifests and lockfiles a pin can live in.
    static let manifestNames: Set<String> = [
        "pyproject.toml", "pipfile", "pipfile.lock", "poetry.lock", "pdm.lock", "uv.lock", "setup.cfg",
    ]

    /// Vulnerable PyPI dependencies with at least one fixed version.
    public func applies(to signal: Signal) -> Bool {
        guard signal.kind == .vulnerableDependency, let dependency = signal.dependency else { return false }
        return dependency.ecosystem.hasPrefix("PyPI") && !dependency.fixedVersions.isEmpty
    }

    /// Candidate versions: fixed versions not below the installed one, ascending.
    static func targets(installed: String, fixed: [String]) -> [String] {
        guard let current = PEP440Version(installed) else { return [] }
        let parsed = fixed.compactMap { text in PEP440Version(text).map { (text, $0) } }.filter { $0.1 > current }
        var seen = Set<String>()
        return parsed.sorted { $0.1 < $1.1 }.map(\.0).filter { seen.insert($0).inserted }
    }

    /// One proposal per target version, smallest first (higher score).
    public func propose(_ context: ActorContext, round: Int) throws -> [Proposal] {
        guard round == 1, let dependency = context.signal.dependency else { return [] }
        let plans = BumpPlan.plans(for: dependency, databasePath: databasePath).prefix(maxVersions)
        let files = manifests(for: dependency, in: context.workspace)
        var proposals: [Proposal] = []
        for (rank, plan) in plans.enumerated() {
            let version = plan.to
            var changes: [FileChange] = []
            var notes: [String] = [plan.summary]
            for path in files {
                guard let text = context.workspace.read(path),
                    let result = ManifestBump.bump(
                        text, path: path, package: dependency.package, from: dependency.installed, to: version)
                else { continue }
                changes.append(FileChange(path: path, before: text, after: result.text))
                notes += result.notes
            }
            guard !changes.isEmpty else { continue }
            var proposal = Proposal(
                actor: kind, changes: changes,
                description:
                    "\(dependency.package) \(dependency.installed) → \(version)\(plan.majorBump ? " (major)" : "") in "
                    + changes.map(\.path).joined(separator: ", "),
                score: 1 - Double(rank) * 0.1, strategy: "smallest-fixed-version", notes: notes)
            proposal.targetVersion = version
            proposal.bump = plan
            proposals.append(proposal)
        }
        if proposals.isEmpty {
            throw HealActorError(
                "no manifest pins \(dependency.package) \(dependency.installed)"
                    + (dependency.manifest.map { " (the report names \($0))" } ?? ""))
        }
        return proposals
    }

    private func manifests(for dependency: Signal.Dependency, in workspace: HealWorkspace) -> [String] {
        if let manifest = dependency.manifest, workspace.files.contains(manifest) { return [manifest] }
        return workspace.files.filter { path in
            let name = (path as NSString).lastPathComponent.lowercased()
            return Self.manifestNames.contains(name) || (name.hasPrefix("requirements") && name.hasSuffix(".txt"))
                || name.hasSuffix(".in")
        }
    }
}

/// An actor that has nothing to offer says why, in one line.
public struct HealActorError: Error, Sendable, CustomStringConvertible {
    /// The reason.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
