import Findings
import SAST
import ScanCore
import Support

/// Frameworks and constructs the native engine met but does not model (issue 75): Angular
/// templates, imports through TypeScript's path aliases, server templates no front end reads. Said
/// in one warning, as ``LanguageCoverage`` says the languages no rule reads: a reviewer told
/// "scanned" for code whose request data is never a source would read silence as clean.
enum FrameworkCoverage {
    /// The notice's text before its counts.
    static let heading = "frameworks and constructs not modelled (their inputs are not followed as sources)"

    /// The notices for `target`, whose JavaScript and TypeScript files' `evidence` the engine's
    /// scan gathered: the one warning when anything is found (none otherwise), and a note for each
    /// config whose path aliases could not be read (the files importing through them then go
    /// unnamed). Configs are read through the target's tree reader, bounded; one that cannot be
    /// read is skipped.
    static func notices(target: ScanTarget, evidence: [String: FrameworkEvidence], tool: ToolName) -> [Notice] {
        var notices: [Notice] = []
        var aliases: [PathAliases] = []
        for file in target.files where PathAliases.isConfig(file) {
            do {
                let config = try PathAliases(file: file, bytes: [UInt8](target.read(file, limit: PathAliases.maxConfigBytes)))
                if config.declaredCount > PathAliases.maxAliases {
                    notices.append(
                        Notice(
                            level: .info,
                            message: "only the first \(PathAliases.maxAliases) of its \(config.declaredCount) path aliases were read",
                            file: file, tool: tool))
                }
                aliases.append(config)
            } catch {
                notices.append(Notice(level: .info, message: "path aliases not read: \(reason(error, file: file))", file: file, tool: tool))
            }
        }
        let found = UnmodelledConstructs.survey(files: target.files, evidence: evidence, aliases: aliases)
        if let notice = notice(found, tool: tool) { notices.insert(notice, at: 0) }
        return notices
    }

    /// Why `file` could not be read, without the file's name the readers start with (the notice
    /// names it): `line 3: expected a value`, `larger than 1048576 bytes`.
    static func reason(_ error: any Error, file: String) -> String {
        let message = (error as? SentinelError)?.message ?? "\(error)"
        guard message.hasPrefix(file + ":") else { return message }
        let rest = message.dropFirst(file.count + 1).trimmedOfWhitespace()
        return rest.first?.isNumber == true ? "line " + rest : rest
    }

    /// The one warning for what `found` holds (its kinds in their order, with their counts of files
    /// and, for JSON and SARIF, the files); nil when it is empty.
    static func notice(_ found: [(kind: UnmodelledConstructs.Kind, files: [String])], tool: ToolName?) -> Notice? {
        guard !found.isEmpty else { return nil }
        let counts = found.map { "\($0.kind.label) in \($0.files.count) file\($0.files.count == 1 ? "" : "s")" }
        var notice = Notice(level: .warning, message: "\(heading): \(counts.joined(separator: ", "))", tool: tool)
        notice.fileGroups = found.map { Notice.FileGroup(kind: $0.kind.label, files: $0.files) }
        return notice
    }
}
