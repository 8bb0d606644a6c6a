import Foundation
import Support

/// Directories of the shared libraries this process has loaded from outside the system's own
/// (a debug build's Swift runtime under the toolchain): the DAST worker is this same binary, so
/// they are bound read-only into its sandbox. A statically linked release binary needs none.
public enum RuntimeLibraries {
    /// Prefixes every profile binds already.
    static let systemPrefixes = ["/usr/", "/lib/", "/lib32/", "/lib64/", "/libx32/", "/etc/"]

    /// The directories to bind, from `maps` (`/proc/self/maps` by default); none for a static binary.
    public static func directories(maps: String? = readMaps()) -> [String] {
        guard let maps else { return [] }
        var directories: [String] = []
        for line in maps.split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = String(line[slash...])
            guard path.contains(".so"), !systemPrefixes.contains(where: path.hasPrefix) else { continue }
            let directory = PathText.directory(of: path)
            if !directories.contains(directory) { directories.append(directory) }
        }
        return directories
    }

    /// `/proc/self/maps`, read to its end (proc files report size 0, so a sized read gets nothing).
    public static func readMaps() -> String? {
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/maps") else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.readToEnd() else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
