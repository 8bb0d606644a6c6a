import Documents
import FoundationEssentials
import Support

/// Reads a profile from YAML or JSON and validates every field, naming the file, the line and
/// the key on any problem (`FILE:LINE: KEY: problem`). Sections a profile leaves out take the `minimal` profile's values.
public enum ProfileLoader {
    /// Loads the profile file at `path`, read with `syntax`, or taken from the run cache when an
    /// earlier load stored the document of exactly these bytes (`ProfileDocumentCache`).
    public static func load(path: String, syntax: ProfileSyntax) throws -> Profile {
        try load(path: path, syntax: syntax, cache: RunCacheFile.directory())
    }

    /// `load(path:syntax:)` with the run cache in `cache` (none when nil).
    static func load(path: String, syntax: ProfileSyntax, cache: String?) throws -> Profile {
        let data: Data
        do {
            data = try BoundedFile.read(path, limit: ProfileDocumentCache.sourceLimit)
        } catch let error as SentinelError {
            throw SentinelError(.invalidInput, "\(error.message) (cannot read profile)", errno: error.errno)
        }
        guard String(data: data, encoding: .utf8) != nil else {
            throw SentinelError(.invalidInput, "\(path): profile is not UTF-8 text")
        }
        let source = Array(data)
        let directory = PathText.directory(of: path)
        let baseDirectory = directory.isEmpty ? "." : directory
        let reader = cache == nil ? nil : syntax.cacheIdentity
        if let cache, let reader, let cached = ProfileDocumentCache.load(source: source, in: cache, reader: reader),
            let profile = try? profile(from: cached, source: path, baseDirectory: baseDirectory)
        {
            return profile
        }
        let root: DocumentNode
        do {
            root = try document(source, source: path, syntax: syntax)
        } catch is SentinelError where syntax.isPartial {
            throw ProfileSyntax.Unsupported(path: path)
        }
        let profile = try profile(from: root, source: path, baseDirectory: baseDirectory)
        if let cache, let reader { ProfileDocumentCache.store(root, source: source, in: cache, reader: reader) }
        return profile
    }

    /// Parses profile text with `syntax`; `source` names it in errors, relative paths resolve
    /// against `baseDirectory`.
    public static func parse(
        _ text: String, source: String, baseDirectory: String = ".", syntax: ProfileSyntax
    ) throws -> Profile {
        try profile(
            from: document(Array(text.utf8), source: source, syntax: syntax), source: source, baseDirectory: baseDirectory)
    }

    private static func document(_ bytes: [UInt8], source: String, syntax: ProfileSyntax) throws -> DocumentNode {
        do {
            return try syntax.parse(bytes, source)
        } catch let error as SentinelError {
            // Keep saying what was expected: the file may be either format.
            throw SentinelError(
                .invalidInput, error.message.replacing("invalid YAML: ", with: "not valid YAML or JSON: "))
        }
    }

    /// The profile `root` describes, every field validated; `source` names the file in errors.
    static func profile(from root: DocumentNode, source: String, baseDirectory: String) throws -> Profile {
        let reader = DocumentReader(source: source)
        guard root.isObject else { throw reader.fail(root, "", "a profile must be a mapping") }
        try reader.checkKeys(
            root,
            allowed: [
                "name", "description", "filesystem", "env", "network", "seccomp", "limits", "secrets", "user",
                "hostname",
            ], at: "")
        let base = Profile.minimal
        var profile = base
        profile.name = try reader.string(root["name"], key: "name") ?? ""
        guard !profile.name.isEmpty else { throw reader.fail(root["name"] ?? root, "", "missing key 'name'") }
        guard profile.name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }) else {
            throw reader.fail(
                root["name"] ?? root, "name", "'\(profile.name)' may hold only letters, digits, '-', '_' and '.'")
        }
        profile.description = try reader.string(root["description"], key: "description") ?? ""
        if let value = root["filesystem"] {
            profile.filesystem = try filesystem(value, reader: reader, base: base.filesystem)
        }
        if let value = root["env"] {
            profile.environment = try environment(value, reader: reader)
        }
        if let value = root["network"] {
            profile.network = try network(value, reader: reader)
        }
        if let value = root["seccomp"] {
            let text = try reader.string(value, key: "seccomp") ?? "default"
            switch text {
            case "default": profile.seccomp = .default
            case "disabled": profile.seccomp = .disabled
            default:
                let path = text.hasPrefix("/") ? text : baseDirectory + "/" + text
                profile.seccomp = .oci(path: PathText.lexicallyNormalized(path))
            }
        }
        if let value = root["limits"] {
            profile.limits = try limits(value, reader: reader, base: base.limits)
        }
        if let value = root["secrets"] {
            profile.secrets = try reader.stringList(value, key: "secrets")
        }
        if let value = root["user"] {
            let user = value
            _ = try reader.mapping(value, key: "user")
            try reader.checkKeys(user, allowed: ["uid", "gid"], at: "user")
            profile.uid = try reader.id(user["uid"], key: "user.uid") ?? profile.uid
            profile.gid = try reader.id(user["gid"], key: "user.gid") ?? profile.gid
        }
        if let value = root["hostname"] {
            profile.hostname = try reader.string(value, key: "hostname") ?? profile.hostname
            guard (1...64).contains(profile.hostname.utf8.count) else {
                throw reader.fail(value, "hostname", "must be 1 to 64 bytes")
            }
        }
        return profile
    }

    private static func filesystem(_ map: DocumentNode, reader: DocumentReader, base: Profile.Filesystem) throws
        -> Profile.Filesystem
    {
        _ = try reader.mapping(map, key: "filesystem")
        try reader.checkKeys(map, allowed: ["readOnly", "hidden", "tmpfs", "workspace"], at: "filesystem")
        var result = base
        if let list = map["readOnly"] {
            result.readOnly = try reader.absolutePaths(list, key: "filesystem.readOnly")
        }
        if let list = map["hidden"] {
            result.hidden = try reader.absolutePaths(list, key: "filesystem.hidden")
        }
        if let mounts = map["tmpfs"] {
            let entries = try reader.mapping(mounts, key: "filesystem.tmpfs")
            var sizes: [String: UInt64] = [:]
            for entry in entries {
                let path = entry.key
                let key = "filesystem.tmpfs.\(path)"
                guard path.hasPrefix("/"), !path.split(separator: "/").contains("..") else {
                    throw reader.fail(entry.line, key, "must be an absolute path")
                }
                sizes[path] = try reader.size(entry.value, key: key)
            }
            result.tmpfs = sizes
        }
        if let mode = map["workspace"] {
            let text = try reader.string(mode, key: "filesystem.workspace") ?? ""
            guard let parsed = Profile.WorkspaceMode(rawValue: text) else {
                throw reader.fail(mode, "filesystem.workspace", "'\(text)' is not one of ro, rw, overlay")
            }
            result.workspace = parsed
        }
        return result
    }

    private static func environment(_ map: DocumentNode, reader: DocumentReader) throws -> Profile.Environment {
        _ = try reader.mapping(map, key: "env")
        try reader.checkKeys(map, allowed: ["allow", "set"], at: "env")
        var result = Profile.minimal.environment
        if let list = map["allow"] { result.allow = try reader.stringList(list, key: "env.allow") }
        if let fixed = map["set"] {
            let entries = try reader.mapping(fixed, key: "env.set")
            var values: [String: String] = [:]
            for entry in entries {
                let name = entry.key
                guard !name.isEmpty, !name.contains("=") else {
                    throw reader.fail(entry.line, "env.set", "bad variable name '\(name)'")
                }
                values[name] = try reader.scalarText(entry.value, key: "env.set.\(name)")
            }
            result.set = values
        }
        return result
    }

    private static func network(_ map: DocumentNode, reader: DocumentReader) throws -> Profile.Network {
        if let text = map.string {
            guard let mode = Profile.Network.Mode(rawValue: text) else {
                throw reader.fail(map, "network", "'\(text)' is not one of none, proxy")
            }
            return Profile.Network(mode: mode)
        }
        _ = try reader.mapping(map, key: "network")
        try reader.checkKeys(map, allowed: ["mode", "allow", "deny", "maxConnections", "maxBytes"], at: "network")
        let modeText = try reader.string(map["mode"], key: "network.mode") ?? "proxy"
        guard let mode = Profile.Network.Mode(rawValue: modeText) else {
            throw reader.fail(map["mode"] ?? map, "network.mode", "'\(modeText)' is not one of none, proxy")
        }
        var result = Profile.Network(mode: mode)
        if let list = map["allow"] { result.allow = try reader.stringList(list, key: "network.allow") }
        if let list = map["deny"] { result.deny = try reader.stringList(list, key: "network.deny") }
        if let count = map["maxConnections"] {
            result.maxConnections = try reader.positiveInt(count, key: "network.maxConnections")
        }
        if let bytes = map["maxBytes"] { result.maxBytes = try reader.size(bytes, key: "network.maxBytes") }
        if mode == .none, !result.allow.isEmpty {
            throw reader.fail(map["allow"] ?? map, "", "network.allow needs network.mode: proxy")
        }
        return result
    }

    private static func limits(_ map: DocumentNode, reader: DocumentReader, base: Profile.Limits) throws
        -> Profile.Limits
    {
        _ = try reader.mapping(map, key: "limits")
        try reader.checkKeys(
            map,
            allowed: [
                "memory", "pids", "cpus", "timeout", "fileSize", "openFiles",
                "outputBytes", "inotifyInstances", "inotifyWatches", "workspaceSize",
            ], at: "limits")
        var result = base
        if let item = map["memory"] { result.memoryBytes = try reader.size(item, key: "limits.memory") }
        if let item = map["pids"] { result.pids = try reader.positiveInt(item, key: "limits.pids") }
        if let item = map["cpus"] {
            let cpus = try reader.number(item, key: "limits.cpus")
            guard cpus > 0, cpus <= 1024 else {
                throw reader.fail(item, "limits.cpus", "must be above 0")
            }
            result.cpus = cpus
        }
        if let item = map["timeout"] { result.timeoutSeconds = try reader.duration(item, key: "limits.timeout") }
        if let item = map["fileSize"] { result.fileSizeBytes = try reader.size(item, key: "limits.fileSize") }
        if let item = map["openFiles"] { result.openFiles = try reader.positiveInt(item, key: "limits.openFiles") }
        if let item = map["outputBytes"] { result.outputBytes = try reader.size(item, key: "limits.outputBytes") }
        let bounds = Profile.Limits.inotifyBounds
        if let item = map["inotifyInstances"] {
            result.inotifyInstances = try bounded(item, key: "limits.inotifyInstances", max: bounds.instances, reader)
        }
        if let item = map["inotifyWatches"] {
            result.inotifyWatches = try bounded(item, key: "limits.inotifyWatches", max: bounds.watches, reader)
        }
        if let item = map["workspaceSize"] {
            let size = try reader.size(item, key: "limits.workspaceSize")
            guard size >= 1 << 20 else {
                throw reader.fail(item, "limits.workspaceSize", "must be at least 1M")
            }
            result.workspaceSizeBytes = size
        }
        return result
    }

    private static func bounded(_ item: DocumentNode, key: String, max: Int, _ reader: DocumentReader) throws -> Int {
        let value = try reader.positiveInt(item, key: key)
        guard value <= max else {
            throw reader.fail(item, key, "must be 1 to \(max)")
        }
        return value
    }
}
