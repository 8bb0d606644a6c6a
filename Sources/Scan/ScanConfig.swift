import DAST
import Findings
import Documents
import DocumentsYAML
import Foundation
import SAST
import ScanCore
import Support

/// `.sentinel.yml` at the scanned root (or `--config FILE`): which scanners and tools run,
/// which files, per-rule severities, the gate, the lowest confidence reported, extra rule
/// directories, the project's own taint models.
public struct ScanConfig: Sendable, Equatable {
    /// Scanners to run; nil means every one that applies.
    public var scanners: [ScannerKind]?
    /// Tools to run (`native`, `secrets`, `osv`, `bandit`, `semgrep`); nil means the default set.
    public var tools: [ToolName]?
    /// Globs of files to scan (empty: every file).
    public var include: [String]
    /// Globs of files to leave out, after the default ignores.
    public var exclude: [String]
    /// Rule id → severity.
    public var severity: [String: Severity]
    /// `failOn`: nil (`none`), or the threshold.
    public var failOn: Severity??
    /// `failOn: proven` or `failOn: {proven: true, severity: high}`: only findings `--prove`
    /// confirmed fail the scan.
    public var failOnProven = false
    /// `minConfidence`: findings below it are left out of the report; nil means the default
    /// (`Confidence.defaultMinimum`) unless `--min-confidence` says otherwise.
    public var minConfidence: Confidence?
    /// Extra native rule directories, absolute (inside the scanned tree when the tree's own
    /// `.sentinel.yml` named them).
    public var ruleDirectories: [String]
    /// Semgrep configs (files or directories), absolute (inside the scanned tree when the tree's
    /// own `.sentinel.yml` named them).
    public var semgrepConfigs: [String]
    /// Whether `DefaultIgnores` apply (`default-excludes: false` turns them off).
    public var defaultExcludes: Bool = true
    /// `sca.max-db-age`: OSV data older than this many seconds fails the scan (nil: the default);
    /// in the scanned tree's own file it may only lower the default (the repository is not trusted
    /// to accept older data), a `--config` file may also raise it.
    public var maxDatabaseAge: Double?
    /// `models`: the project's own taint sources, sanitizers and sinks, added to the native rules.
    public var taintModels = TaintModels()
    /// `dast.login`: how a `--dast` scan logs in (the operator's `--config` only: it holds credentials).
    public var dastLogin: WebLogin?
    /// `dast.exclude`: URL path globs a `--dast` scan never requests (added to `--exclude-url`).
    public var dastExclude: [String] = []
    /// `prove:`: how `scan --prove` without a URL starts the application (`ProofApplication`).
    public var prove: ProofApplication?

    /// The defaults: every scanner that applies, the default ignores, no overrides.
    public init(
        scanners: [ScannerKind]? = nil, tools: [ToolName]? = nil, include: [String] = [], exclude: [String] = [],
        severity: [String: Severity] = [:], failOn: Severity?? = .none, ruleDirectories: [String] = [],
        semgrepConfigs: [String] = []
    ) {
        self.scanners = scanners
        self.tools = tools
        self.include = include
        self.exclude = exclude
        self.severity = severity
        self.failOn = failOn
        self.ruleDirectories = ruleDirectories
        self.semgrepConfigs = semgrepConfigs
    }

    /// `failOn`: a threshold (`high`, `none`, `proven`), or `{proven: true, severity: high}`.
    static func gate(_ value: DocumentNode, reader: DocumentReader) throws -> Gate {
        guard value.isObject else {
            let text = try reader.scalarText(value, key: "failOn")
            guard let gate = try? Gate(parsing: text) else {
                throw reader.fail(value, "failOn", "'\(text)' is not one of none, info, low, medium, high, critical, proven")
            }
            return gate
        }
        try reader.checkKeys(value, allowed: ["proven", "severity"], at: "failOn")
        var gate = Gate(failOn: .info)
        if let proven = value["proven"] {
            switch try reader.scalarText(proven, key: "failOn.proven").lowercased() {
            case "true", "yes": gate.requiresProof = true
            case "false", "no": gate.requiresProof = false
            case let other: throw reader.fail(proven, "failOn.proven", "'\(other)' is not true or false")
            }
        }
        if let severity = value["severity"] {
            let text = try reader.scalarText(severity, key: "failOn.severity")
            guard let parsed = try? Gate(parsing: text), !parsed.requiresProof else {
                throw reader.fail(severity, "failOn.severity", "'\(text)' is not one of none, info, low, medium, high, critical")
            }
            gate.failOn = parsed.failOn
        } else if !gate.requiresProof {
            gate.failOn = Gate.defaultThreshold
        }
        return gate
    }

    /// The config file read from the scanned root.
    public static let fileName = ".sentinel.yml"
    static let keys: Set<String> = [
        "scanners", "tools", "include", "exclude", "severity", "failOn", "rules", "semgrep", "default-excludes", "sca",
        "minConfidence", "models", "dast", "prove",
    ]

    /// Larger configs are refused unread: a real one is a few hundred bytes.
    public static let maxSize = 1 << 20
    /// The most `include` or `exclude` patterns a config may give: real ones list tens, and each
    /// pattern is checked against every file of the tree.
    public static let maxPatterns = 10_000

    /// Loads `path`, a file the operator named (`--config`); relative directories in it resolve
    /// against the file's directory. Only a regular file up to `maxSize` is read.
    /// `environment` gives the `{env: NAME}` values of `dast.login.fields`.
    public static func load(path: String, environment: [String: String] = [:]) throws -> ScanConfig {
        let data = try BoundedFile.read(path, limit: maxSize)
        let directory = PathText.directory(of: path)
        return try parse(
            String(decoding: data, as: UTF8.self), source: path,
            baseDirectory: directory.isEmpty ? "." : directory, environment: environment)
    }

    /// Loads the scanned tree's own `.sentinel.yml` from `directory`, nil when there is none.
    /// The tree is untrusted: the file is read through a `TreeReader`, so a link (to a host
    /// file), a FIFO or a device at that name is refused unread, and the error names only the file.
    public static func load(inTree directory: String) throws -> ScanConfig? {
        guard let tree = try? TreeReader(path: directory), tree.exists(fileName) else { return nil }
        let source = (directory as NSString).appendingPathComponent(fileName)
        let data: Data
        do {
            data = try tree.read(fileName, limit: maxSize)
        } catch let error as SentinelError {
            let problem = error.message.hasPrefix(fileName + ": ") ? String(error.message.dropFirst(fileName.count + 2)) : error.message
            throw SentinelError(.invalidInput, "\(source): \(problem)")
        }
        return try parse(String(decoding: data, as: UTF8.self), source: source, baseDirectory: directory, tree: tree)
    }

    /// Parses config text; `source` names it in errors (`FILE:LINE: KEY: problem`), relative
    /// paths resolve against `baseDirectory`. With `tree` (the config is the scanned tree's own,
    /// so repository content), every path it names (`rules`, `semgrep.config`) must lie inside
    /// that tree and be reached without a symbolic link, or the config is refused naming the key:
    /// a repository may not point the CLI at host files (an operator's `--config` may).
    public static func parse(
        _ text: String, source: String, baseDirectory: String, tree: TreeReader? = nil, environment: [String: String] = [:]
    ) throws -> ScanConfig {
        // Every scalar stays text, as the keys expect (`failOn: high`, `default-excludes: yes`).
        let documents: [DocumentNode]
        do {
            documents = try YAML.documents(Array(text.utf8), file: source, scalars: .strings)
        } catch let error as SentinelError {
            throw SentinelError(.invalidInput, error.message.replacing("invalid YAML: ", with: "not valid YAML: "))
        }
        guard let root = documents.last, root.value != .null else { return ScanConfig() }
        let reader = DocumentReader(source: source)
        guard root.isObject else { throw reader.fail(root, "", "the config must be a mapping") }
        try reader.checkKeys(root, allowed: keys, at: "")
        var config = ScanConfig()
        if let value = root["scanners"] {
            config.scanners = try reader.stringList(value, key: "scanners").enumerated().map { index, name in
                guard let kind = ScannerKind(rawValue: name) else {
                    throw reader.fail(value.elements[index], "scanners[\(index)]", "'\(name)' is not one of sast, secrets, sca, dast")
                }
                return kind
            }
        }
        if let value = root["tools"] {
            let known = ScannerRegistry.toolNames
            config.tools = try reader.stringList(value, key: "tools").enumerated().map { index, name in
                guard known.contains(ToolName(name)) else {
                    let names = known.map(\.rawValue).joined(separator: ", ")
                    throw reader.fail(value.elements[index], "tools[\(index)]", "'\(name)' is not one of \(names)")
                }
                return ToolName(name)
            }
        }
        if let value = root["include"] { config.include = try patterns(value, key: "include", reader: reader) }
        if let value = root["exclude"] { config.exclude = try patterns(value, key: "exclude", reader: reader) }
        if let value = root["default-excludes"] {
            switch try reader.scalarText(value, key: "default-excludes").lowercased() {
            case "true", "yes", "on": config.defaultExcludes = true
            case "false", "no", "off": config.defaultExcludes = false
            case let other: throw reader.fail(value, "default-excludes", "'\(other)' is not true or false")
            }
        }
        if let value = root["severity"] {
            for member in try reader.mapping(value, key: "severity") {
                let text = try reader.string(member.value, key: "severity.\(member.key)") ?? ""
                config.severity[member.key] = try Severity(
                    parsing: text, context: "\(source):\(member.value.line): severity.\(member.key)")
            }
        }
        if let value = root["failOn"] {
            let gate = try Self.gate(value, reader: reader)
            config.failOn = .some(gate.failOn)
            config.failOnProven = gate.requiresProof
        }
        if let value = root["minConfidence"] {
            let text = try reader.scalarText(value, key: "minConfidence")
            guard let confidence = try? Confidence(parsing: text) else {
                throw reader.fail(value, "minConfidence", "'\(text)' is not one of low, medium, high")
            }
            config.minConfidence = confidence
        }
        let resolve = { (list: DocumentNode, key: String) throws -> [String] in
            try reader.stringList(list, key: key).enumerated().map { index, path in
                if let tree, let problem = tree.problem(reaching: path) {
                    throw reader.fail(
                        list.elements[index], "\(key)[\(index)]",
                        "'\(path)' \(problem); a repository's .sentinel.yml names only paths inside the scanned tree "
                            + "(an operator's --config FILE may name others)")
                }
                return path.hasPrefix("/") ? path : ((baseDirectory + "/" + path) as NSString).standardizingPath
            }
        }
        if let value = root["rules"] { config.ruleDirectories = try resolve(value, "rules") }
        if let value = root["semgrep"] {
            _ = try reader.mapping(value, key: "semgrep")
            try reader.checkKeys(value, allowed: ["config"], at: "semgrep")
            if let configs = value["config"] {
                config.semgrepConfigs = try resolve(configs, "semgrep.config")
            }
        }
        if let value = root["models"] { config.taintModels = try TaintModels.parse(value, file: source) }
        if let value = root["dast"] {
            guard tree == nil else {
                throw reader.fail(
                    root.members.first { $0.key == "dast" }?.line ?? value.line, "dast",
                    "set by the operator only (scan --config FILE): a repository's .sentinel.yml may not hold credentials")
            }
            config.dastLogin = try DASTConfig.login(value, reader: reader, environment: environment)
            config.dastExclude = try DASTConfig.exclude(value, reader: reader)
        }
        if let value = root["prove"] {
            config.prove = try ProofApplication.parse(value, reader: reader, environment: tree == nil ? environment : nil)
        }
        if let value = root["sca"] {
            _ = try reader.mapping(value, key: "sca")
            try reader.checkKeys(value, allowed: ["max-db-age"], at: "sca")
            if let age = value["max-db-age"] {
                let text = try reader.scalarText(age, key: "sca.max-db-age")
                guard let seconds = Quantity.seconds(text) else {
                    throw reader.fail(age, "sca.max-db-age", "'\(text)' is not a duration (e.g. 7d, 36h)")
                }
                config.maxDatabaseAge = seconds
            }
        }
        return config
    }

    /// A list of globs, at most `maxPatterns` of them.
    private static func patterns(_ value: DocumentNode, key: String, reader: DocumentReader) throws -> [String] {
        guard value.elements.count <= maxPatterns else {
            throw reader.fail(value, key, "\(value.elements.count) patterns, more than the \(maxPatterns) a config may give")
        }
        return try reader.stringList(value, key: key)
    }
}
