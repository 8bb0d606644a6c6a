import Findings
import Foundation
import Synchronization
import PythonSyntax
import Support

/// The rules a scan applies, loaded once and shared by every file.
public struct RuleSet: Sendable {
    /// The Python rules, sorted by id.
    public var rules: [Rule]
    /// The template rules (`languages: [template]`), sorted by id.
    public var templateRules: [TemplateRule]
    /// The route rules (`mode: route`), sorted by id.
    public var routeRules: [RouteRule]

    /// Wraps already-parsed rules; duplicate ids are rejected.
    public init(rules: [Rule], templateRules: [TemplateRule] = [], routeRules: [RouteRule] = []) throws {
        var seen: [String: String] = [:]
        let all = rules.map { ($0.id, $0.file) } + templateRules.map { ($0.id, $0.file) } + routeRules.map { ($0.id, $0.file) }
        for (id, file) in all {
            if let other = seen[id] {
                throw SentinelError(.invalidInput, "\(file): duplicate rule id '\(id)' (also in \(other))")
            }
            seen[id] = file
        }
        self.rules = rules.sorted { $0.id < $1.id }
        self.templateRules = templateRules.sorted { $0.id < $1.id }
        self.routeRules = routeRules.sorted { $0.id < $1.id }
    }

    /// Loads every `*.yaml`/`*.yml` file under `directories`, recursively.
    /// - Throws: `SentinelError` naming the first bad file.
    public static func load(directories: [String]) throws -> RuleSet {
        let files = try directories.flatMap(ruleFiles(under:))
        // Rule files are read and parsed on one large-stack thread per processor (patterns
        // recurse like code, see `PyLargeStack`); the first bad file in order is the error.
        let parsed = Mutex<[Result<LoadedRule, any Error>?]>(Array(repeating: nil, count: files.count))
        PyLargeStack.concurrentPerform(iterations: files.count) { i in
            let rule = Result { () throws -> LoadedRule in
                // A rule directory may be the scanned repository's own: no link is followed.
                let data = try BoundedFile.read(files[i], limit: maxRuleFileSize, followLinks: false)
                return try RuleLoader.parseAny(String(decoding: data, as: UTF8.self), file: files[i])
            }
            parsed.withLock { $0[i] = rule }
        }
        var rules: [Rule] = []
        var templateRules: [TemplateRule] = []
        var routeRules: [RouteRule] = []
        for result in parsed.withLock({ $0 }) {
            switch try result!.get() {
            case .python(let rule): rules.append(rule)
            case .template(let rule): templateRules.append(rule)
            case .route(let rule): routeRules.append(rule)
            }
        }
        return try RuleSet(rules: rules, templateRules: templateRules, routeRules: routeRules)
    }

    /// Larger rule files are refused unread: the largest shipped one is a few kilobytes.
    static let maxRuleFileSize = 4 << 20

    /// Rule files under `directory`, sorted so errors and ordering are reproducible. A symbolic
    /// link inside it is an error, not a way out of the directory (it may be a repository's).
    static func ruleFiles(under directory: String) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
        else { throw SentinelError(.invalidInput, "\(directory): no such rule directory") }
        let root = URL(fileURLWithPath: directory)
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isSymbolicLinkKey])
        else {
            throw SentinelError(.io, "\(directory): cannot list rule directory")
        }
        var files: [String] = []
        for case let url as URL in enumerator {
            if (try? url.resourceValues(forKeys: [.isSymbolicLinkKey]))?.isSymbolicLink == true {
                throw SentinelError(.invalidInput, "\(url.path): is a symbolic link; rule directories are read without following links")
            }
            if ["yaml", "yml"].contains(url.pathExtension) { files.append(url.path) }
        }
        return files.sorted()
    }

    /// The rules of either kind that apply only in some projects (``ProjectScope``).
    public var scopedRules: [ScopedRule] {
        rules.filter { !$0.scope.isEverywhere }.map { ScopedRule(id: $0.id, scope: $0.scope) }
            + templateRules.filter { !$0.scope.isEverywhere }.map { ScopedRule(id: $0.id, scope: $0.scope) }
    }

    /// Which rules cover which Bandit tests and Semgrep rules (`metadata.bandit`/`semgrep`).
    public var equivalence: RuleEquivalence {
        var table = RuleEquivalence()
        let all = rules.map { ($0.id, $0.banditIds, $0.semgrepIds) } + templateRules.map { ($0.id, $0.banditIds, $0.semgrepIds) }
        for (id, bandit, semgrep) in all {
            table.add(nativeRule: id, checkIds: bandit, of: ToolName.bandit)
            table.add(nativeRule: id, checkIds: semgrep, of: ToolName.semgrep)
        }
        return table
    }

    /// SARIF metadata of every rule.
    public var descriptors: [RuleDescriptor] {
        rules.map(\.descriptor) + templateRules.map(\.descriptor) + routeRules.map(\.descriptor)
    }
}
