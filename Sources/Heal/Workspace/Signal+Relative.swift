import Foundation
import Signals

/// Here in Heal rather than in Signals: it reads the repository's files through `HealWorkspace`.
extension Signal {
    /// The signal with its paths made relative to the repository: an absolute path inside it
    /// loses the repository prefix, and a path written from elsewhere (a report of the parent
    /// directory, a traceback from another checkout) becomes the repository file it ends with.
    /// Paths that match no file stay as they are.
    func relative(to workspace: HealWorkspace) -> Signal {
        var copy = self
        let root = URL(fileURLWithPath: workspace.repository).standardizedFileURL.path
        let files = workspace.files
        func relative(_ path: String) -> String {
            if path.hasPrefix(root + "/") { return String(path.dropFirst(root.count + 1)) }
            if files.contains(path) { return path }
            let best = files.filter { path.hasSuffix("/" + $0) }.max { $0.count < $1.count }
            return best ?? path
        }
        copy.locations = locations.map { location in
            var location = location
            location.file = relative(location.file)
            return location
        }
        copy.dependency?.manifest = dependency?.manifest.map(relative)
        return copy
    }
}
