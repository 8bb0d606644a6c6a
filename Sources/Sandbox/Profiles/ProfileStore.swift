import FoundationEssentials
import Support

#if canImport(Glibc)
    import Glibc
#endif

/// Finds profiles by name in the profile directories, or by path.
public struct ProfileStore: Sendable {
    /// Directories searched in order for `<name>.<ext>` profile files.
    public var directories: [String]
    /// How the files are read.
    public var syntax: ProfileSyntax

    /// Makes a store searching `directories` in order, reading files with `syntax`.
    public init(directories: [String], syntax: ProfileSyntax) {
        self.directories = directories
        self.syntax = syntax
    }

    /// `$SENTINEL_PROFILES` (colon-separated), then the shipped profiles: beside the installed
    /// binary, the checkout it was built in, the installed locations (``DataDirectory``).
    public static func standard(
        syntax: ProfileSyntax,
        environment: [String: String] = ProcessEnvironment.value("SENTINEL_PROFILES").map { ["SENTINEL_PROFILES": $0] } ?? [:]
    ) -> ProfileStore {
        var directories: [String] = []
        if let configured = environment["SENTINEL_PROFILES"] {
            directories += configured.split(separator: ":").map(String.init)
        }
        directories += DataDirectory.candidates(named: "profiles", containing: "minimal.yaml")
        return ProfileStore(directories: directories, syntax: syntax)
    }

    private static let extensions = ["yaml", "yml", "json"]

    /// A profile by name (`minimal`) or by path (`./my.yaml`). `minimal` always resolves,
    /// to the built-in copy when no file defines it.
    public func resolve(_ nameOrPath: String) throws -> Profile {
        if nameOrPath.contains("/") || Self.extensions.contains(PathText.pathExtension(of: nameOrPath)) {
            guard Self.exists(nameOrPath) else {
                throw SentinelError(.invalidInput, "\(nameOrPath): profile file not found")
            }
            return try ProfileLoader.load(path: nameOrPath, syntax: syntax)
        }
        if let path = path(forName: nameOrPath) {
            return try ProfileLoader.load(path: path, syntax: syntax)
        }
        if nameOrPath == Profile.minimal.name { return Profile.minimal }
        let known = list().map(\.name).joined(separator: ", ")
        throw SentinelError(.invalidInput, "unknown profile '\(nameOrPath)' (known: \(known.isEmpty ? "minimal" : known))")
    }

    /// The first existing profile file for `name` in the directories, or nil when there is none.
    public func path(forName name: String) -> String? {
        for directory in directories {
            for ext in Self.extensions {
                let path = "\(directory)/\(name).\(ext)"
                if Self.exists(path) { return path }
            }
        }
        return nil
    }

    /// Whether `path` names something, following links as opening it does. `access(2)`, not
    /// `FileManager`: its first use in a process costs a launch ~0.1 ms of set-up.
    private static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Every profile file found, first directory wins for a name.
    public func list() -> [(name: String, path: String)] {
        var seen = Set<String>()
        var result: [(name: String, path: String)] = []
        for directory in directories {
            let entries = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
            for entry in entries where Self.extensions.contains(PathText.pathExtension(of: entry)) {
                let name = PathText.deletingPathExtension(of: entry)
                if seen.insert(name).inserted { result.append((name, "\(directory)/\(entry)")) }
            }
        }
        return result
    }
}
