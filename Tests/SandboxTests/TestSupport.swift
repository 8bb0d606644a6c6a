#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// What the host offers the tests; gated tests say which of these they need.
enum Host {
    static let isRoot = getuid() == 0
    static let userNamespaces: Bool = {
        let text = (try? String(contentsOfFile: "/proc/sys/user/max_user_namespaces", encoding: .utf8)) ?? "0"
        return (Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 0
    }()
    static let canSandbox = isRoot && userNamespaces
    static let cgroupV1 = FileManager.default.fileExists(atPath: "/sys/fs/cgroup/memory/memory.limit_in_bytes")
}

/// The package root, found from this file's path.
enum Paths {
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
    static let profiles = packageRoot + "/profiles"
    static let corpora = URL(fileURLWithPath: packageRoot).deletingLastPathComponent().path + "/shared/corpora"
}

/// A temporary directory removed when the value is released.
final class TemporaryDirectory {
    let path: String

    init(_ label: String = "sentinel-test") {
        var template = Array("/tmp/\(label)-XXXXXX".utf8CString)
        let result = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        path = result.map { String(cString: $0) } ?? "/tmp/\(label)-\(UUID().uuidString)"
        chmod(path, 0o755)
    }

    func write(_ name: String, _ text: String) {
        _ = FileManager.default.createFile(atPath: path + "/" + name, contents: Data(text.utf8))
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
