import Documents
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

    /// The source and sanitizer sets the rules were loaded with (models extend them).
    public var library: TaintLibrary

    /// Wraps already-parsed rules; duplicate ids are rejected.
    public init(
        rules: [Rule], templateRules: [TemplateRule] = [], routeRules: [RouteRule] = [],
        library: TaintLibrary = TaintLibrary()
    ) throws {
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
        self.library = library
    }

    /// Loads every `*.yaml`/`*.yml` file under `directories`, recursively: the source and
    /// sanitizer sets (`set:` files) first, then the rules, which may include any of them.
    /// `setsFrom`: more directories whose sets (not rules) the rules may include (the shipped
    /// sets, for testing a project's own rule directory alone).
    /// - Throws: `SentinelError` naming the first bad file.
    public static func load(directories: [String], setsFrom: [String] = []) throws -> RuleSet {
        let ruleDirectories = Set(directories.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        let setDirectories = setsFrom.filter { !ruleDirectories.contains(URL(fileURLWithPath: $0).standardizedFileURL.path) }
        let ownFiles = try directories.flatMap(ruleFiles(under:))
        let files = try ownFiles + setDirectories.flatMap(ruleFiles(under:))
        // Files are read and parsed on one large-stack thread per processor (patterns recurse
        // like code, see `PyLargeStack`); the first bad file in order is the error.
        let documents = try inParallel(files.count) { i -> (DocumentNode, TaintPatternSet?) in
            // A rule directory may be the scanned repository's own: no link is followed.
            let data = try BoundedFile.read(files[i], limit: maxRuleFileSize, followLinks: false)
            let root = try RuleLoader.document(String(decoding: data, as: UTF8.self), file: files[i])
            return (root, try RuleLoader.set(root, file: files[i]))
        }
        var sets = TaintLibrary()
        for case let set? in documents.map(\.1) { try sets.add(set) }
        let library = sets
        let ruleFiles = ownFiles.indices.filter { documents[$0].1 == nil }
        let loaded = try inParallel(ruleFiles.count) { i in
            try RuleLoader.parseAny(documents[ruleFiles[i]].0, file: files[ruleFiles[i]], library: library)
        }
        var rules: [Rule] = []
        var templateRules: [TemplateRule] = []
        var routeRules: [RouteRule] = []
        for rule in loaded {
            switch rule {
            case .python(let rule): rules.append(rule)
            case .template(let rule): templateRules.append(rule)
            case .route(let rule): routeRules.append(rule)
            }
        }
        return try RuleSet(rules: rules, templateRules: templateRules, routeRules: routeRules, library: library)
    }

    /// `body(0..<count)` on large-stack threads, results in order; the first error in order is thrown.
    private static func inParallel<T: Sendable>(_ count: Int, _ body: @Sendable @escaping (Int) throws -> T) throws -> [T] {
        let results = Mutex<[Result<T, any Error>?]>(Array(repeating: nil, count: count))
        PyLargeStack.concurrentPerform(iterations: count) { i in
            let result = Result { try body(i) }
            results.withLock { $0[i] = result }
        }
        return try results.withLock { $0 }.map { try $0!.get() }
    }

    /// Larger rule files are refused unread: the largest shipped one is a few kilobytes.
    static let maxRuleFileSize = 4 << 20

    /// Rule files under `directory`, sorted so errors and ordering are reproducible. A symbolic
    /// link inside it is an error, not a way out of the directory (it may be a repository's).
    static func ruleFiles(under directory: String) throws -> [String] {
        // The directory named is opened following links (the operator or a config named it); below
        // it, each directory is listed through its descriptor and nothing is followed.
        let top: DirectoryDescriptor
        do throws(Errno) {
            top = try DirectoryDescriptor.workingDirectory.openDirectory(directory, followingLinks: true)
        } catch {
            if error.rawValue == ENOENT || error.rawValue == ENOTDIR {
                throw SentinelError(.invalidInput, "\(directory): no such rule directory")
            }
            throw SentinelError(.io, "\(directory): cannot list rule directory: \(error)", errno: error)
        }
        // Paths as the callers always saw them: absolute, the directory as named, no `..` resolved.
        let base = URL(fileURLWithPath: directory).path
        var files: [String] = []
        var pending: [(DirectoryDescriptor, path: String, depth: Int)] = [(top, base, 0)]
        while let (directory, path, depth) = pending.popLast() {
            let entries: [DirectoryDescriptor.Entry]
            do throws(Errno) { entries = try directory.entries() } catch {
                throw SentinelError(.io, "\(path): cannot list rule directory: \(error)", errno: error)
            }
            for entry in entries {
                let child = path.hasSuffix("/") ? path + entry.text : path + "/" + entry.text
                var type = Int32(entry.type)
                if type == Int32(DT_UNKNOWN), let info = try? directory.status(of: entry.name) {
                    type = Int32(DirectoryDescriptor.Entry.type(ofMode: info.st_mode))
                }
                switch type {
                case Int32(DT_LNK):
                    throw SentinelError(
                        .invalidInput, "\(child): is a symbolic link; rule directories are read without following links")
                case Int32(DT_DIR):
                    guard depth < maxRuleDirectoryDepth else {
                        throw SentinelError(.invalidInput, "\(child): rule directories nest deeper than \(maxRuleDirectoryDepth)")
                    }
                    do throws(Errno) {
                        pending.append((try directory.openDirectory(entry.name), child, depth + 1))
                    } catch {
                        throw SentinelError(.io, "\(child): cannot list rule directory: \(error)", errno: error)
                    }
                default:
                    let name = entry.text
                    // `x.yaml` and `.x.yaml`, not a bare `.yaml` (no extension, as URL sees it).
                    if (name.hasSuffix(".yaml") && name != ".yaml") || (name.hasSuffix(".yml") && name != ".yml") {
                        files.append(child)
                    }
                }
            }
        }
        return files.sorted()
    }

    /// How deep rule directories may nest (the shipped ones are two levels deep).
    static let maxRuleDirectoryDepth = 32

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
