#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import TestSupport

/// The package root, found from this file's path.
enum Paths {
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
    static let profiles = packageRoot + "/profiles"
    static let corpora = Corpora.root.path
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
