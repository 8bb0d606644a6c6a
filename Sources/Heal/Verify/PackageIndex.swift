import Foundation
import Support

/// Where a dependency bump's verification installs the bumped version from, inside the sandbox:
/// a directory of wheels (bound read-only, `pip --no-index --find-links`) or a package index URL
/// (`pip --index-url`), which the profile's egress allow-list must let through.
public enum PackageIndex: Sendable, Hashable, Codable {
    /// A local directory of wheels (a mirror or `pip download` output), absolute.
    case directory(String)
    /// A PEP 503 simple index.
    case url(String)

    /// `http(s)://…` is an index URL, anything else a directory (made absolute, must exist).
    public init(parsing text: String) throws {
        if text.hasPrefix("http://") || text.hasPrefix("https://") {
            self = .url(text)
            return
        }
        let path = text.hasPrefix("/") ? text : FileManager.default.currentDirectoryPath + "/" + text
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SentinelError(.invalidInput, "--package-index: \(text): not a directory or an http(s) URL")
        }
        self = .directory((path as NSString).standardizingPath)
    }

    /// How the evidence names it.
    public var description: String {
        switch self {
        case .directory(let path): "wheel directory \(path)"
        case .url(let url): "index \(url)"
        }
    }

    /// The sandbox wrapper's mode and location arguments.
    var wrapperArguments: [String] {
        switch self {
        case .directory(let path): ["dir", path]
        case .url(let url): ["url", url]
        }
    }
}
