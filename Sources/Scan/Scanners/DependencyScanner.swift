import Findings
import Foundation
import SCA
import ScanCore
import Support

/// SCA: every lockfile and manifest in the tree, matched against the offline OSV database.
/// One finding per (package, version, advisory) at the lockfile line, naming the smallest
/// fixed version above the installed one; the fix data also travels in `properties` for the
/// healer's dependency-bump actor.
public struct DependencyScanner: ScanCore.Scanner {
    /// Selected by `--tools osv`; findings carry it as their tool.
    public let name = ToolName.osv
    /// Dependency scanning, selected by `--sca`.
    public let kind = ScannerKind.sca

    /// Makes the dependency scanner; it has no options.
    public init() {}

    /// Whether the target has a lockfile or manifest this scanner reads (oversized ones included)
    /// that gives it something to check: a pyproject.toml holding only tools' settings (ruff,
    /// pytest), as many do, does not make the scan need advisory data.
    public func applies(to target: ScanTarget) -> Bool {
        (target.files + target.oversizedFiles).contains {
            Self.reads($0, root: target.root) && Self.declaresDependencies($0, in: target)
        }
    }

    /// False only for a pyproject.toml that reads cleanly and declares no dependency: one that
    /// cannot be read or parsed is reported by the scan, so it counts.
    static func declaresDependencies(_ file: String, in target: ScanTarget) -> Bool {
        guard PyprojectParser.matches(fileName: PathText.lastComponent(of: file)) else { return true }
        guard let bytes = try? target.read(file, limit: Int(LockfileDetector.maxFileSize)),
            let result = try? PyprojectParser().parse([UInt8](bytes), file: file)
        else { return true }
        return !result.dependencies.isEmpty || !result.problems.isEmpty
    }

    /// Whether `file` (relative to `root`) is a lockfile or manifest this scanner reads; such
    /// files are read whatever `--max-file-size` says (lockfiles have their own limit).
    public static func reads(_ file: String, root: String) -> Bool {
        LockfileDetector(root: root).parser(forFileName: (file as NSString).lastPathComponent) != nil
    }

    /// Why it cannot run (no OSV database at the context's path), or nil when it can.
    public func unavailableReason(context: ScanContext) -> String? {
        FileManager.default.fileExists(atPath: context.databasePath)
            ? nil
            : "no OSV database at \(context.databasePath): run `sentinel db update` (or `sentinel db import PATH...` "
                + "offline) first, or pass --allow-missing-db"
    }

    /// Lockfiles without advisory data are unchecked, not clean: the scan fails closed unless the
    /// user accepted missing data (`--allow-missing-db`).
    public func unavailableFailsScan(context: ScanContext) -> Bool { context.requireDatabase }

    /// Reads the target's lockfiles and reports packages with known vulnerabilities in the OSV database.
    public func scan(_ target: ScanTarget, context: ScanContext) throws -> ScannerOutput {
        // Exactly the lockfiles the file selection keeps (named files, or a directory's walk with its
        // globs and default ignores): each one counted as scanned is read. A walk of its own with
        // another set of skipped directories counted `target/` or `vendor/` lockfiles, and never read them.
        context.progress(.step(tool: name, "reading lockfiles"))
        let detector = LockfileDetector(root: target.root)
        let detected =
            target.isFileList || isDirectory(target.root)
            ? detector.scan(files: target.files + target.oversizedFiles) : try detector.scan()
        // A lockfile that cannot be read is bad input: reported once, the scan goes on, exit 2.
        let inputErrors = detected.errors.map {
            Notice(
                level: .error, message: $0.line > 0 ? "\($0.file):\($0.line): \($0.message)" : "\($0.file): \($0.message)",
                tool: name)
        }
        var notices: [Notice] = []
        var findings: [Finding] = []
        var rules: [String: RuleDescriptor] = [:]
        for problem in detected.results.flatMap(\.problems) {
            if problem.level == .info && problem.message.hasPrefix("not pinned") {
                findings.append(
                    Finding(
                        ruleId: Self.notPinnedRule.id, tool: name, severity: .info, confidence: .high,
                        message: problem.message, location: Location(file: problem.file, startLine: max(1, problem.line))))
                rules[Self.notPinnedRule.id] = Self.notPinnedRule
            } else if problem.level != .info {
                notices.append(Notice(level: .warning, message: problem.description, file: problem.file, tool: name))
            }
        }

        let pinned = detected.dependencies.filter { $0.version != nil }
        context.progress(.step(tool: name, "matching \(pinned.count) dependencies against OSV"))
        let database = try OSVDatabase(path: context.databasePath)
        let matches = try database.lookup(pinned)
        var matchesByAdvisory: [String: [VulnerabilityMatch]] = [:]
        for (dependency, found) in zip(pinned, matches) {
            // One finding per vulnerability, not per id it is published under (PYSEC and GHSA).
            for group in AliasGroup.group(found) {
                findings.append(finding(for: group.primary, dependency: dependency, sameAs: group.otherIDs))
                matchesByAdvisory[group.primary.advisory.id, default: []].append(group.primary)
            }
        }
        for (id, found) in matchesByAdvisory { rules[id] = descriptor(for: found) }
        // Old or absent advisories miss what was published: unchecked, not clean (exit 3).
        let data = try AdvisoryDataCheck(database, ecosystems: Set(pinned.map(\.ecosystem.name)), context: context)
        for warning in data.warnings {
            context.warn(warning)
            notices.append(Notice(level: .warning, message: warning, tool: name))
        }
        let tool =
            data.failureMessage.map { ToolRun(name: name, status: .failed, message: $0) } ?? ToolRun(name: name, status: .succeeded)
        var output = ScannerOutput(
            findings: findings, rules: rules.values.sorted { $0.id < $1.id }, tool: tool, notices: notices)
        output.inputErrors = inputErrors
        return output
    }

    private func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    /// What a match only by an open range beyond the advisory's listed versions says.
    static let unlistedNote =
        " (only by a range with no upper bound: the advisory lists the versions it affects and not this one, so low confidence)"

    static let notPinnedRule = RuleDescriptor(
        id: "sca.not-pinned", tool: ToolName.osv, name: "not-pinned", shortDescription: "Dependency not pinned to a version",
        fullDescription:
            "The manifest names a dependency without an exact version, so the installed version (and its advisories) cannot be known. Pin it in a lockfile.",
        defaultSeverity: .info, tags: ["supply-chain"])

    private func finding(for match: VulnerabilityMatch, dependency: Dependency, sameAs: [String] = []) -> Finding {
        let advisory = match.advisory
        let names = advisory.aliases + sameAs.filter { !advisory.aliases.contains($0) }
        let aliases = names.isEmpty ? "" : " (\(names.joined(separator: ", ")))"
        var fix = "no fixed version is published"
        if let smallest = match.smallestFix {
            fix = "fixed in \(smallest)" + (match.fixIsSameMajor == false ? " (a new major version)" : "")
        }
        let summary =
            advisory.summary.map { text -> String in
                var trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                while trimmed.hasSuffix(".") { trimmed.removeLast() }
                return ": " + trimmed
            } ?? ""
        let facts = DependencyFacts(
            package: match.package, installedVersion: match.version, ecosystem: match.ecosystem.name,
            affectedRange: match.affectedRange, fixedVersions: match.fixedVersions,
            smallestFixedVersion: match.smallestFix, fixIsSameMajor: match.fixIsSameMajor, aliases: advisory.aliases,
            sameAs: sameAs.isEmpty ? nil : sameAs, isDirect: dependency.isDirect,
            path: dependency.path.isEmpty ? nil : dependency.path, cvssScore: advisory.severity.score,
            cvssVector: advisory.severity.vector, severitySource: advisory.severity.source)
        let via = dependency.isDirect || dependency.path.count < 2 ? "" : " via \(dependency.path.joined(separator: " > "))"
        // Identity by evidence (DESIGN §1c): an open range the advisory's own list of affected
        // versions contradicts is weak evidence (an advisory published before this release).
        let unlisted = match.onlyByOpenRangeBeyondListed ? Self.unlistedNote : ""
        return Finding(
            ruleId: advisory.id, tool: name, severity: Severity(advisory.severity.severity),
            confidence: match.onlyByOpenRangeBeyondListed ? .low : .high,
            message: "\(match.package) \(match.version)\(via) is affected by \(advisory.id)\(aliases)\(summary); \(fix)\(unlisted)",
            location: Location(file: dependency.file, startLine: max(1, dependency.line)),
            snippet: "\(match.package)==\(match.version)", facts: FindingFacts(dependency: facts),
            references: [advisory.url] + advisory.references.map(\.url).filter { $0 != advisory.url })
    }

    /// One rule per advisory; its help names the advisory, its summary, where its severity came
    /// from and the fixed version of every affected package the scan found.
    private func descriptor(for matches: [VulnerabilityMatch]) -> RuleDescriptor {
        let advisory = matches[0].advisory
        let summary = advisory.summary?.trimmingCharacters(in: .whitespacesAndNewlines)
        let aliases = advisory.aliases.isEmpty ? "" : " (\(advisory.aliases.joined(separator: ", ")))"
        var fixes: [String] = []
        for match in matches {
            let line =
                match.smallestFix.map { "upgrade \(match.package) to \($0) or later" }
                ?? "no fixed version of \(match.package) is published"
            if !fixes.contains(line) { fixes.append(line) }
        }
        let severity = Self.severityText(advisory.severity)
        let text =
            "\(advisory.id)\(aliases): \(summary ?? "known vulnerability").\n\nSeverity: \(severity).\n\n"
            + "Fix: " + fixes.joined(separator: "; ") + ".\n\nDetails: \(advisory.url)"
        let markdown =
            "**\(advisory.id)**\(aliases): \(summary ?? "known vulnerability")\n\nSeverity: \(severity)\n\n"
            + fixes.map { "- \($0)" }.joined(separator: "\n") + "\n\nDetails: [\(advisory.id)](\(advisory.url))"
        var descriptor = RuleDescriptor(
            id: advisory.id, tool: ToolName.osv, name: advisory.id, shortDescription: summary ?? "Known vulnerability \(advisory.id)",
            fullDescription: summary ?? advisory.id, help: text, helpMarkdown: markdown, helpURI: advisory.url,
            defaultSeverity: Severity(advisory.severity.severity), tags: ["security", "vulnerability"] + advisory.aliases)
        descriptor.securitySeverityScore = advisory.severity.score
        return descriptor
    }

    /// `critical (CVSS 9.8, CVSS:3.1/AV:N/...)`, `high (database)`, `unknown (no severity published)`.
    static func severityText(_ assessment: SeverityAssessment) -> String {
        let severity = assessment.severity.rawValue
        if let score = assessment.score, let vector = assessment.vector {
            let borrowed = assessment.source.hasPrefix("alias:") ? " from alias \(assessment.source.split(separator: " ").last ?? "")" : ""
            return "\(severity) (CVSS \(score), \(vector)\(borrowed))"
        }
        if assessment.isUnknown { return "unknown (no CVSS vector or severity label is published; gated like high)" }
        return
            "\(severity) (\(assessment.source.hasPrefix("alias:") ? "label of alias \(assessment.source.split(separator: " ").last ?? "")" : "database label"))"
    }
}

extension Severity {
    init(_ advisory: AdvisorySeverity) {
        self = Severity(rawValue: advisory.rawValue) ?? .unknown
    }
}
