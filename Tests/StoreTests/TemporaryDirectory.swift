import Foundation

/// A fresh directory under the system's temporary directory, removed by the caller.
func temporaryDirectory(_ label: String = "store") throws -> String {
    let path = NSTemporaryDirectory() + "sentinel-\(label)-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    return path
}
