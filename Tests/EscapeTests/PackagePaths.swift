#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Where the built binaries are, found from this file's location (`Tests/EscapeTests/…`).
enum PackagePaths {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static var probe: String { root + "/.build/debug/sentinel-probe" }
    static var sentinel: String { root + "/.build/debug/sentinel" }
}

/// Facts about the host that decide whether a test can run here.
enum Host {
    static var isRoot: Bool { getuid() == 0 }

    /// User namespaces exist and are not switched off (`user.max_user_namespaces` > 0).
    static var userNamespacesAvailable: Bool {
        guard FileManager.default.fileExists(atPath: "/proc/self/ns/user"),
            let text = try? String(contentsOfFile: "/proc/sys/user/max_user_namespaces", encoding: .utf8),
            let count = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return false }
        return count > 0
    }

    /// The kernel has AF_VSOCK (a module that may not be loaded).
    static var hasVsock: Bool {
        let fd = socket(AF_VSOCK, Int32(SOCK_STREAM.rawValue), 0)
        if fd >= 0 { close(fd) }
        return fd >= 0
    }

    /// The inode number of one of our own namespaces, e.g. `net` → `4026531840`.
    static func namespaceID(_ kind: String) -> String? {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/\(kind)"),
            let open = target.firstIndex(of: "["), let close = target.firstIndex(of: "]")
        else { return nil }
        return String(target[target.index(after: open)..<close])
    }

    /// Command lines of every process on the host, NULs turned into spaces.
    static func commandLines() -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { $0.first?.isNumber == true }.compactMap { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty
            else { return nil }
            return String(decoding: data.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
        }
    }
}
