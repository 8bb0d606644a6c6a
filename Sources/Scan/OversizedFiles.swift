#if canImport(Glibc)
    import Glibc
#endif
import Findings
import Languages
import SAST
import ScanCore
import Support

/// Files over `--max-file-size` that the scan would otherwise analyse: code (by name, or a script
/// by its shebang), server templates, configuration. Each is a high finding
/// (``ParserBoundFinding/oversized(file:reason:tool:)``, the one mechanism of every bound a file
/// hits), never only a note (issue 76, H3: appending a 5 MB comment to a file turned its critical
/// finding into "skipped"). Other large files (data, media, a lockfile dependency scanning read
/// whole) stay skipped with the reason.
enum OversizedFiles {
    /// Configuration the secrets scan reads, by extension; `.env` files by name.
    static let configurationExtensions: Set<String> = [
        "yml", "yaml", "toml", "ini", "cfg", "conf", "properties", "env", "tf", "tfvars",
    ]
    /// Server templates by their own extensions (`.html` is as often a static page or a report).
    static let templateExtensions: Set<String> = ["jinja", "jinja2", "j2", "djhtml", "tpl"]

    /// The findings for the files of `oversized` the scan would analyse: code when a code
    /// scanner was asked for, configuration when the secrets scan was.
    static func findings(
        _ oversized: [String], target: ScanTarget, walker: FileWalker, code: Bool, secrets: Bool
    ) -> [Finding] {
        oversized.compactMap { file in
            guard let tool = analysingTool(file, target: target, code: code, secrets: secrets) else { return nil }
            return ParserBoundFinding.oversized(file: file, reason: reason(file, target: target, walker: walker), tool: tool)
        }
    }

    /// Why `file` was not read: `larger than --max-file-size (6.0M > 5.0M)`.
    static func reason(_ file: String, target: ScanTarget, walker: FileWalker) -> String {
        var info = stat()
        let size = stat(target.absolute(file), &info) == 0 ? Int(info.st_size) : walker.maxFileBytes + 1
        return walker.oversizedReason(bytes: size)
    }

    /// The scanner that would have read `file`, nil when none would.
    private static func analysingTool(_ file: String, target: ScanTarget, code: Bool, secrets: Bool) -> ToolName? {
        let name = PathText.lastComponent(of: file).lowercased()
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let suffix = dot.map { String(name[name.index(after: $0)...]) } ?? ""
        if code {
            if SourceLanguage(fileName: name) != nil || templateExtensions.contains(suffix) { return ToolName.native }
            // A script named for nothing: its first line says, read whatever the file's size.
            if !ScanTarget.notScripts.contains(suffix), let head = try? target.head(file),
                SourceLanguage(shebang: head) != nil
            {
                return ToolName.native
            }
        }
        if secrets && (configurationExtensions.contains(suffix) || name.hasPrefix(".env")) { return ToolName.secrets }
        return nil
    }
}
