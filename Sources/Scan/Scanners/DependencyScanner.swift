import Findings
import Foundation
import SCA
import Support

/// SCA: every lockfile and manifest in the tree, matched against the offline OSV database.
/// One finding per (package, version, advisory) at the lockfile line, naming the smallest
/// fixed version above the installed one; the fix data also travels in `properties` for the
/// healer's dependency-bump actor.
public struct DependencyScanner: Scanner {
    public let name = "osv"
    public let kind = ScannerKind.sca

    public init() {}

    public func applies(to target: ScanTarget) -> Bool {
        (target.files + target.oversizedFiles).contains { Self.reads($0, root: target.root) }
    }

    /// Whether `file` (relative to `root`) is a lockfile or manifest this scanner reads; such
    /// files are read whatever `--max-file-size` says (lockfiles have their own limit).
    public static func reads(_ file: String, root: String) -> Bool {
        LockfileDetector(root: root).parser(forFileName: (file as NSString).lastPathComponent) != nil
    }

    public func unavailableReason(context: ScanContext) -> String? {
        FileManager.default.fileExists(atPath: context.databasePath)
            ? nil
            : "no OSV database at \(context.databasePath): run `sentinel db import PATH...` first"
    }

    public func scan(_ target: ScanTarget, context: ScanContext) throws -> ScannerOutput {
        // Named files: exactly the lockfiles among them; a directory: every lockfile under it.
        let detector = LockfileDetector(root: target.root)
        let detected = target.isFileList ? detector.scan(files: target.files + target.oversizedFiles) : try detector.scan()
        var notices = detected.errors.map { Notice(level: .warning, message: $0.description, file: $0.file, tool: name) }
        if detected.nothingReadable {
            let files = detected.files.joined(separator: ", ")
            throw SentinelError(.invalidInput, "no lockfile could be read (\(files)): \(detected.errors.first?.description ?? "")")
        }
        var findings: [Finding] = []
        var rules: [String: RuleDescriptor] = [:]
        for problem in detected.results.flatMap(\.problems) {
            if problem.level == .info && problem.message.hasPrefix("not pinned") {
                findings.append(Finding(ruleId: Self.notPinnedRule.id, tool: name, severity: .info, confidence: .high,
                                        message: problem.message, location: Location(file: problem.file, startLine: max(1, problem.line))))
                rules[Self.notPinnedRule.id] = Self.notPinnedRule
            } else if problem.level != .info {
                notices.append(Notice(level: .warning, message: problem.description, file: problem.file, tool: name))
            }
        }

        let pinned = detected.dependencies.filter { $0.version != nil }
        let database = try OSVDatabase(path: context.databasePath)
        let matches = try database.lookup(pinned)
        for (dependency, found) in zip(pinned, matches) {
            for match in found {
                findings.append(finding(for: match, dependency: dependency))
                rules[match.advisory.id] = descriptor(for: match.advisory)
            }
        }
        return ScannerOutput(findings: findings, rules: rules.values.sorted { $0.id < $1.id },
                             tool: ToolRun(name: name, status: .succeeded), notices: notices)
    }

    static let notPinnedRule = RuleDescriptor(
        id: "sca.not-pinned", tool: "osv", name: "not-pinned", shortDescription: "Dependency not pinned to a version",
        fullDescription: "The manifest names a dependency without an exact version, so the installed version (and its advisories) cannot be known. Pin it in a lockfile.",
        defaultSeverity: .info, tags: ["supply-chain"])

    private func finding(for match: VulnerabilityMatch, dependency: Dependency) -> Finding {
        let advisory = match.advisory
        let aliases = advisory.aliases.isEmpty ? "" : " (\(advisory.aliases.joined(separator: ", ")))"
        var fix = "no fixed version is published"
        if let smallest = match.smallestFix {
            fix = "fixed in \(smallest)" + (match.fixIsSameMajor == false ? " (a new major version)" : "")
        }
        let summary = advisory.summary.map { text -> String in
            var trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            while trimmed.hasSuffix(".") { trimmed.removeLast() }
            return ": " + trimmed
        } ?? ""
        var properties: [String: String] = [
            "package": match.package, "installedVersion": match.version, "ecosystem": match.ecosystem.name,
            "affectedRange": match.affectedRange, "fixedVersions": match.fixedVersions.joined(separator: ","),
            "aliases": advisory.aliases.joined(separator: ","), "direct": dependency.isDirect ? "true" : "false",
        ]
        if let smallest = match.smallestFix { properties["fixedVersion"] = smallest }
        if let sameMajor = match.fixIsSameMajor { properties["fixSameMajor"] = sameMajor ? "true" : "false" }
        if !dependency.path.isEmpty { properties["dependencyPath"] = dependency.path.joined(separator: " > ") }
        if let score = advisory.severity.score { properties["cvssScore"] = String(score) }
        if let vector = advisory.severity.vector { properties["cvssVector"] = vector }
        let via = dependency.isDirect || dependency.path.count < 2 ? "" : " via \(dependency.path.joined(separator: " > "))"
        return Finding(
            ruleId: advisory.id, tool: name, severity: Severity(advisory.severity.severity), confidence: .high,
            message: "\(match.package) \(match.version)\(via) is affected by \(advisory.id)\(aliases)\(summary); \(fix)",
            location: Location(file: dependency.file, startLine: max(1, dependency.line)),
            snippet: "\(match.package)==\(match.version)", properties: properties,
            references: [advisory.url] + advisory.references.map(\.url).filter { $0 != advisory.url })
    }

    private func descriptor(for advisory: Advisory) -> RuleDescriptor {
        RuleDescriptor(id: advisory.id, tool: "osv", name: advisory.id,
                       shortDescription: advisory.summary ?? "Known vulnerability \(advisory.id)",
                       fullDescription: advisory.summary ?? advisory.id, helpURI: advisory.url,
                       defaultSeverity: Severity(advisory.severity.severity), tags: ["security", "vulnerability"] + advisory.aliases)
    }
}

extension Severity {
    init(_ advisory: AdvisorySeverity) {
        self = Severity(rawValue: advisory.rawValue) ?? .medium
    }
}
