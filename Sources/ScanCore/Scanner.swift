import Findings
import Foundation
import Languages
import Support

/// What a scanner looks for.
public enum ScannerKind: String, Sendable, CaseIterable, Codable {
    case sast, secrets, sca, dast
}

/// The tree being scanned: an absolute root and the files selected by the config's
/// include/exclude globs (or named on the command line), relative to the root.
public struct ScanTarget: Sendable {
    /// The absolute path of the scanned tree.
    public let root: String
    /// Selected files, relative to `root`, `/`-separated.
    public let files: [String]
    /// Files over `--max-file-size`: source scanners skip them (the scan reports them); dependency
    /// scanning still reads the lockfiles among them.
    public var oversizedFiles: [String]
    /// True when the user named files or several paths: scanners look at exactly `files` (and
    /// `oversizedFiles`), never elsewhere under the root.
    public var isFileList: Bool
    /// Files the default ignores leave out of code and dependency analysis (tests, vendored and
    /// build output): a credential committed there leaks all the same, so the secrets scan reads
    /// them too.
    public var defaultIgnoredFiles: [String] = []
    /// The root opened once: every file a scanner reads goes through it (DESIGN §5b).
    private let tree: TreeReader?

    /// Makes a target from an absolute root and files relative to it.
    public init(root: String, files: [String], oversizedFiles: [String] = [], isFileList: Bool = false) {
        self.root = root
        self.files = files
        self.oversizedFiles = oversizedFiles
        self.isFileList = isFileList
        self.tree = try? TreeReader(path: root)
    }

    /// The bytes of the tree's file `relative`, read through the root's `TreeReader`: never
    /// outside the tree, never through a link, a regular file of at most `limit` bytes. Throws
    /// `SentinelError(.invalidInput)` as `RELATIVE: problem`.
    public func read(_ relative: String, limit: Int = 1 << 30) throws -> Data {
        guard let tree else { throw SentinelError(.invalidInput, "\(root): cannot open directory") }
        return try tree.read(relative, limit: limit)
    }

    /// The absolute path of `relative` under `root`.
    public func absolute(_ relative: String) -> String {
        root.hasSuffix("/") ? root + relative : root + "/" + relative
    }

    /// Files whose name says no language the scan reads (`bin/deploy`, `ping.cgi`, `deploy.prod`)
    /// and whose first line is a shebang, each with the interpreter it names (`python3`, `node`,
    /// `bash`): scripts the interpreter runs whatever their name. Only the first
    /// `Shebang.headBytes` bytes of each are read.
    public func scripts() -> [(file: String, interpreter: String)] {
        files.compactMap { file in
            let name = PathText.lastComponent(of: file)
            if let dot = name.lastIndex(of: "."), dot != name.startIndex,
                Self.notScripts.contains(name[name.index(after: dot)...].lowercased())
            {
                return nil
            }
            guard let head = try? head(file), let interpreter = Shebang.interpreter(of: head)
            else { return nil }
            return (file, interpreter)
        }
    }

    /// The first `Shebang.headBytes` bytes of the tree's file `relative` (a script's first
    /// line), read through the root's `TreeReader` whatever the file's size.
    public func head(_ relative: String) throws -> [UInt8] {
        guard let tree else { throw SentinelError(.invalidInput, "\(root): cannot open directory") }
        return try tree.head(relative, count: Shebang.headBytes)
    }

    /// Extensions that name what a file is (code read by name, data, documents, media, archives,
    /// other languages' sources, shell and batch scripts): such a file is not looked into for a
    /// shebang. The registered languages' extensions (``Languages/registry``) are code read by name.
    public static let notScripts: Set<String> = Languages.fileExtensions.union([
        "md", "rst", "txt", "adoc", "json", "yml", "yaml", "toml", "ini", "cfg", "lock", "xml", "csv", "tsv", "html", "htm",
        "css", "scss", "less", "svg", "png", "jpg", "jpeg", "gif", "ico", "webp", "pdf", "zip", "gz", "tgz", "bz2", "xz",
        "jar", "whl", "map", "woff", "woff2", "ttf", "eot", "otf", "mp3", "mp4", "so", "o", "a", "pyc", "class",
        "go", "java", "kt", "kts", "rb", "php", "cs", "rs", "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "swift", "scala",
        "sh", "bash", "zsh", "fish", "ps1", "bat", "cmd", "pl", "pm",
    ])

    /// Selected files with one of these extensions (without the dot).
    public func files(withExtensions extensions: Set<String>) -> [String] {
        files.filter { file in
            guard let dot = file.lastIndex(of: "."), file[dot...].contains("/") == false else { return false }
            return extensions.contains(String(file[file.index(after: dot)...]))
        }
    }
}

/// What one scanner produced.
public struct ScannerOutput: Sendable {
    /// What the scanner found, before the pipeline filters it.
    public var findings: [Finding]
    /// Metadata for the rules its findings refer to.
    public var rules: [RuleDescriptor]
    /// How the tool ran: status, version, time.
    public var tool: ToolRun
    /// Things to tell the user that are not findings.
    public var notices: [Notice]
    /// Bad input the scanner read past (`FILE:LINE: problem`, level error): the scan finishes
    /// and exits 2.
    public var inputErrors: [Notice] = []
    /// Selected files this scanner could not read after all.
    public var skippedFiles: [SkippedFile] = []
    /// Which native rules cover which Bandit/Semgrep checks (set by the native engine).
    public var equivalence: RuleEquivalence?
    /// The routes the code serves (set by the native engine): web findings are placed at their
    /// handlers.
    public var routes: [RouteLocation] = []

    /// Makes an output; only the tool run is required.
    public init(findings: [Finding] = [], rules: [RuleDescriptor] = [], tool: ToolRun, notices: [Notice] = []) {
        self.findings = findings
        self.rules = rules
        self.tool = tool
        self.notices = notices
    }
}

/// One source of findings: the native engine, the secrets detector, SCA, or an adapter
/// around an external tool (which always runs inside the sandbox).
public protocol Scanner: Sendable {
    /// The name `--tools` selects it by (`native`, `secrets`, `osv`, `bandit`, `semgrep`).
    var name: ToolName { get }
    var kind: ScannerKind { get }
    /// Whether the default tool set runs it (the native engines; external tools are opt-in).
    var isDefault: Bool { get }
    /// The tool's own in-source suppression comment (`# nosec`), honoured whether or not the tool
    /// runs; nil when it has none.
    var suppressionSyntax: SuppressionSyntax? { get }
    /// Whether there is anything for it in the target (e.g. Python files, lockfiles).
    func applies(to target: ScanTarget) -> Bool
    /// Whether the tool can run here; nil when it can, else why not (e.g. "bandit is not installed").
    func unavailableReason(context: ScanContext) -> String?
    /// Whether being unavailable fails the scan even when the tool was not named (the default set
    /// chose it): what it would have checked is then unchecked, not clean.
    func unavailableFailsScan(context: ScanContext) -> Bool
    /// Scans. Throws `SentinelError(.toolFailed, ...)` when the tool fails.
    func scan(_ target: ScanTarget, context: ScanContext) throws -> ScannerOutput
    /// Starts, in the background, work that needs no file list (loading and compiling rules), so
    /// that it runs while the files are listed; returns at once. `scan` waits for it and uses
    /// it; errors surface from `scan`.
    func prepare(context: ScanContext)
    /// Waits for what ``prepare(context:)`` started when ``scan(_:context:)`` did not take it (the
    /// scanner did not apply, was unavailable, or the scan stopped before it), and drops it: no
    /// thread a scanner started outlives the scan. The runner calls it once every scanner is done.
    func finishPreparing()
}

extension Scanner {
    /// By default a scanner is in the default set.
    public var isDefault: Bool { true }
    /// By default a scanner has no suppression comment of its own.
    public var suppressionSyntax: SuppressionSyntax? { nil }
    /// By default a scanner can always run (nil).
    public func unavailableReason(context: ScanContext) -> String? { nil }
    /// By default an unavailable tool the user did not name is skipped with a notice.
    public func unavailableFailsScan(context: ScanContext) -> Bool { false }
    /// By default there is nothing to prepare.
    public func prepare(context: ScanContext) {}
    /// By default nothing was started.
    public func finishPreparing() {}
}
