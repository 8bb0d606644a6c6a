import Support

/// Byte-identical copies, under a build's output directory, of files scanned elsewhere: a theme's
/// `static/dist/app.js` copied from its `src/app.js`, a package's `out/` beside its source. The
/// copy would repeat every finding of its source, so it is left out and the source is analysed.
/// Only a file under an output directory is a copy, and only of one outside any: two copies of
/// each other under output directories are both kept, and whichever is kept is analysed in full,
/// so leaving a copy out hides nothing its twin does not show.
enum BuildCopies {
    /// Directory names build tools write their output to, at any depth (`build/` and `dist/` at
    /// the root or beside a manifest are already left out by path, `DefaultIgnores`).
    static let outputDirectories: Set<String> = [
        "build", "dist", "out", "output", "bundle", "bundles", "compiled", "_build", "generated",
    ]
    /// Smaller files are not looked at: an empty `__init__.py` or a one-line re-export is the same
    /// in many places without being anyone's copy.
    static let minimumBytes = 256

    /// Whether a directory on `path` (relative, `/`-separated) is an output directory.
    static func isUnderOutputDirectory(_ path: String) -> Bool {
        path.split(separator: "/").dropLast().contains { outputDirectories.contains(String($0)) }
    }

    /// Among `files` (paths with their sizes), those under an output directory whose bytes
    /// equal a file's outside any. Reads only files whose size another's matches, each once
    /// (`read` returns nil for one it cannot read, which is then nobody's copy); a content hash
    /// finds the candidates, and the bytes confirm.
    static func copies(_ files: [(path: String, size: Int)], read: (String) -> [UInt8]?) -> [String: String] {
        let eligible = files.filter { $0.size >= minimumBytes }
        var sourcesBySize: [Int: [String]] = [:]
        var outputs: [(path: String, size: Int)] = []
        for file in eligible {
            if isUnderOutputDirectory(file.path) { outputs.append(file) } else { sourcesBySize[file.size, default: []].append(file.path) }
        }
        var hashes: [String: Int] = [:]
        func hash(_ path: String) -> Int? {
            if let known = hashes[path] { return known }
            guard let bytes = read(path) else { return nil }
            var hasher = Hasher()
            hasher.combine(bytes)
            let value = hasher.finalize()
            hashes[path] = value
            return value
        }
        var found: [String: String] = [:]
        for output in outputs {
            guard let sources = sourcesBySize[output.size], let outputHash = hash(output.path) else { continue }
            for source in sources where hash(source) == outputHash {
                guard let a = read(output.path), let b = read(source), a == b else { continue }
                found[output.path] = source
                break
            }
        }
        return found
    }
}
