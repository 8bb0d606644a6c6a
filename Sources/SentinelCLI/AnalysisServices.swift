#if canImport(Glibc)
    import Glibc
#endif
import Autonomy
import CLICore
import Foundation
import Git
import Sandbox
import Store
import Support

/// What root lends the analysis of a command that keeps state (`heal`, `proposals approve`):
/// the state directory, and the operator's `--policy` with the hosts it names.
extension AnalysisSandbox {
    /// The broker's name of the operator's `--policy` file.
    static let policyResource = "operator-policy"

    /// Lends the state directory writable at its path (made first, mode 0700), and tells the
    /// analysis where it is when its place came from root's HOME (the analysis's HOME is its own).
    /// The OSV database is lent as a mapped descriptor under root's read hold, or, for an
    /// analysis that lives on (`osvByDescriptor` false: a fleet worker, whose hold would keep
    /// every import off), read at its path by each scan under SQLite's own locks, the cache
    /// directory lent writable beside the state directory.
    mutating func lendState(_ state: StateDirectory, osvByDescriptor: Bool = true) throws {
        try state.create()
        let path = Self.absolute(state.path)
        lent.append(LentDirectory(path: path, writable: true))
        if osvByDescriptor {
            resources[AnalysisResources.osvDatabaseName] = state.osvDatabase
        } else {
            let cache = Self.absolute(state.cachePath)
            if !(cache == path || cache.hasPrefix(path + "/") || path.hasPrefix(cache + "/")) {
                try PrivateDirectory.create(cache)
                lent.append(LentDirectory(path: cache, writable: true))
            }
        }
        environment[AnalysisResources.osvDatabasePathVariable] = state.osvDatabase
        if ProcessInfo.processInfo.environment["SENTINEL_HOME"].map(\.isEmpty) ?? true {
            environment["XDG_STATE_HOME"] = PathText.directory(of: Self.absolute(state.path))
            environment["XDG_CACHE_HOME"] = PathText.directory(of: Self.absolute(state.cachePath))
        }
    }

    /// Hands over git's identity for `repository` as root reads it (the analysis sees neither
    /// root's home nor its global configuration), as git's own `GIT_AUTHOR_*` variables, unless
    /// `--author` (`option`) or those variables already name one.
    mutating func lendGitIdentity(option: String?, repository: String) {
        let environment = ProcessInfo.processInfo.environment
        guard option == nil, (try? GitIdentity.fromEnvironment(environment)) == .some(nil),
            let configured = GitIdentity.configured(repository: repository, environment: environment)
        else { return }
        self.environment["GIT_AUTHOR_NAME"] = configured.name
        self.environment["GIT_AUTHOR_EMAIL"] = configured.email
    }

    /// Hands over the operator's policy (`--policy`) by descriptor, and lets the analysis reach
    /// the hosts it names: its webhook, and GitHub's API when the token it names is set. Root
    /// reads that file for those hosts only: it is the operator's, named on root's command line.
    mutating func lendOperatorPolicy(_ path: String?) throws {
        let environment = ProcessInfo.processInfo.environment
        var policy: Policy?
        if let path {
            resources[Self.policyResource] = Self.absolute(path)
            policy = try Policy.load(path: path)
        }
        if let webhook = policy?.webhook { egress += EgressEntry.of(url: webhook) }
        let github = policy?.github
        if environment[github?.tokenEnv ?? "GITHUB_TOKEN"].map({ !$0.isEmpty }) ?? false {
            egress += EgressEntry.of(url: github?.api ?? GitHubSettings.defaultAPI)
        }
    }

    /// The analysis of `directory` with root's arguments: a descriptor path (the directory a
    /// fleet worker checked and holds) is lent again by descriptor, and the arguments naming it
    /// (`named`) are given the path it shows inside (the directory's own); any other directory is
    /// shown as `repository` decides (the directory, or the work tree holding it).
    static func over(
        _ directory: String, named: Set<String>, repository: (String) -> String
    ) throws -> AnalysisSandbox {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var shown = directory
        if DirectoryDescriptor.isDescriptorPath(directory) {
            let path = try WorkspaceDirectory(resolving: directory).path
            arguments = arguments.map { named.contains($0) ? path : $0 }
        } else {
            shown = repository(directory)
        }
        return AnalysisSandbox(arguments: arguments, repository: shown, workingDirectory: FileManager.default.currentDirectoryPath)
    }

    /// The top of the git work tree holding `directory` when the sandbox can show it, else nil.
    static func workTreeTop(_ directory: String) -> String? {
        GitWorkTree.containing(directory).map(\.root).flatMap { (try? WorkspaceDirectory(resolving: $0)) != nil ? $0 : nil }
    }

    /// `path` made absolute from the current directory, lexically.
    static func absolute(_ path: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        return URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: cwd, isDirectory: true)).standardizedFileURL.path
    }

    /// In the analysis: the bytes of the file root handed over as `resource` (read from the
    /// descriptor itself: reopening it by `/proc/self/fd` would ask for the file's permissions
    /// again, which root's private file refuses), named `name` in errors; nil outside an analysis
    /// or when root lent none.
    static func lentBytes(_ resource: String, name: String, limit: Int) throws -> Data? {
        guard LaunchBrokerClient.servesThisCommand, let fd = try? LaunchBrokerClient.open(resource: resource) else { return nil }
        defer { close(fd) }
        return try BoundedFile.read(fd: fd, name: name, limit: limit)
    }

    /// The operator's policy at `path`: in the analysis, read through root's descriptor (its
    /// errors still name the file), else from the file.
    static func loadOperatorPolicy(_ path: String) throws -> Policy {
        guard let data = try lentBytes(policyResource, name: path, limit: 1 << 20) else { return try Policy.load(path: path) }
        return try Policy.parse(String(decoding: data, as: UTF8.self), file: path)
    }
}

/// `host:port` egress entries for the URLs root's configuration names.
enum EgressEntry {
    /// The entry for `url`'s host and port (80/443 by scheme), or none for what is not an http(s) URL.
    static func of(url: String) -> [String] {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = parsed.host, !host.isEmpty
        else { return [] }
        let port = parsed.port ?? (scheme == "https" ? 443 : 80)
        return [(host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host) + ":\(port)"]
    }
}
