import Foundation
import Sandbox

/// Host paths an adapter must add to the profile's read-only binds.
enum AdapterBinds {
    /// `paths` (absolute, standardized) that no `profileRoots` entry already covers, each
    /// followed by its resolved target when it goes through a symbolic link.
    static func outsideProfileRoots(_ paths: [String], profileRoots: [String]) -> [String] {
        func covered(_ path: String) -> Bool {
            profileRoots.contains { path == $0 || path.hasPrefix($0 + "/") }
        }
        var binds: [String] = []
        for path in paths {
            let standardized = (absolute(path) as NSString).standardizingPath
            let resolved = (standardized as NSString).resolvingSymlinksInPath
            for candidate in [standardized, resolved] where !covered(candidate) && !binds.contains(candidate) {
                binds.append(candidate)
            }
        }
        return binds
    }

    /// `path` made absolute against the current directory.
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        return (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
    }

    /// The first of `paths` that a profile's `hidden` entry would cover inside the sandbox, with
    /// the covering path; `nil` when every path stays visible. (tmpfs mounts no longer cover
    /// binds: the launcher mounts shallower paths first, so `/tmp/rules` lands inside `/tmp`.)
    static func shadowed(_ paths: [String], by filesystem: Profile.Filesystem) -> (path: String, by: String)? {
        let covering = filesystem.hidden.sorted()
        for path in paths {
            if let mount = covering.first(where: { path == $0 || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }) {
                return (path, mount)
            }
        }
        return nil
    }
}
