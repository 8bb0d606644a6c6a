import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Where the built binaries are, found from this file's location (`Tests/EscapeTests/…`).
enum PackagePaths {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static var probe: String { root + "/.build/debug/sentinel-probe" }
    /// `SENTINEL_ESCAPE_LAUNCHER` overrides it, to run the battery against another build.
    static var sentinel: String {
        ProcessInfo.processInfo.environment["SENTINEL_ESCAPE_LAUNCHER"] ?? root + "/.build/debug/sentinel"
    }

    /// The Swift runtime this test process has loaded. SwiftPM links even the C probe against
    /// `libswiftCore.so` (RUNPATH: the toolchain, then `$ORIGIN`); the toolchain is not inside
    /// the sandbox, so the harness puts a copy beside the probe.
    static var swiftRuntime: String? {
        guard let maps = TestHost.readProcFile("/proc/self/maps") else { return nil }
        for line in maps.split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = String(line[slash...])
            if path.hasSuffix("/libswiftCore.so") { return path }
        }
        return nil
    }
}

/// Facts about the host that decide whether an attempt can run here (beyond `TestHost`'s).
extension TestHost {
    /// The kernel has AF_VSOCK (a module that may not be loaded).
    static var hasVsock: Bool {
        let fd = socket(AF_VSOCK, Int32(SOCK_STREAM.rawValue), 0)
        if fd >= 0 { close(fd) }
        return fd >= 0
    }

    /// The running kernel's release is at least major.minor.
    static func kernelAtLeast(_ major: Int, _ minor: Int) -> Bool {
        var name = utsname()
        guard uname(&name) == 0 else { return false }
        let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let parts = release.split(whereSeparator: { !$0.isNumber }).prefix(2).compactMap { Int($0) }
        guard parts.count == 2 else { return false }
        return parts[0] > major || (parts[0] == major && parts[1] >= minor)
    }

    /// Every named protocol is registered (`/proc/net/protocols`, first column).
    static func hasProtocols(_ names: [String]) -> Bool {
        guard let text = readProcFile("/proc/net/protocols") else { return false }
        let present = Set(text.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) })
        return names.allSatisfy(present.contains)
    }

    /// The inode number of one of our own namespaces, e.g. `net` → `4026531840`.
    static func namespaceID(_ kind: String) -> String? {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/\(kind)"),
            let open = target.firstIndex(of: "["), let close = target.firstIndex(of: "]")
        else { return nil }
        return String(target[target.index(after: open)..<close])
    }

    /// The whole text of a /proc file. They report size 0, so read to end-of-file.
    static func readProcFile(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.readToEnd() else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Every process on the host with its command line (NULs turned into spaces).
    static func processes() -> [(pid: Int32, commandLine: String)] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = Int32(entry),
                let handle = FileHandle(forReadingAtPath: "/proc/\(entry)/cmdline")
            else { return nil }
            defer { try? handle.close() }
            guard let data = try? handle.readToEnd(), !data.isEmpty else { return nil }
            let text = String(decoding: data.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
            return (pid, text)
        }
    }

    /// Command lines of every process on the host.
    static func commandLines() -> [String] { processes().map(\.commandLine) }
}
