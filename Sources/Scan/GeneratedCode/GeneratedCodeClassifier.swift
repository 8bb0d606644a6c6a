import Support

/// Whether a file a tool wrote (a bundle, a minified or vendored library, a hashed chunk, a
/// compiler's output, a protocol buffer module) rather than a person, read from its content:
/// the signals in this folder, each over a bounded sample of the file's two ends. The scan
/// leaves such files out of code analysis by default and names them in its one summary of
/// what the defaults left out (`DefaultExclusion.Kind.generated`); the secrets scan still
/// reads them.
///
/// A file is generated when one conclusive signal matches (`GeneratedCodeSignal.isConclusive`),
/// or its name is a hashed chunk's and its content a chunk's. JavaScript and TypeScript are read
/// for every signal; Python for a generated header only (`_pb2.py`, `@generated`), as its
/// generators mark their output and nothing minifies it.
public enum GeneratedCodeClassifier {
    /// Extensions of the JavaScript and TypeScript files classified (not `.vue` or `.svelte`:
    /// components are written by hand, and their builds are `.js`).
    public static let scriptExtensions: Set<String> = ["js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx"]
    /// Extensions of the Python files classified.
    public static let pythonExtensions: Set<String> = ["py", "pyi"]

    /// Whether the file at `path` is one the classifier reads.
    public static func classifies(_ path: String) -> Bool {
        let ext = PathText.pathExtension(of: path).lowercased()
        return scriptExtensions.contains(ext) || pythonExtensions.contains(ext)
    }

    /// The signals `sample` of the file at `path` matches, in the summary's order; empty for a
    /// file of a language not classified.
    static func signals(path: String, sample: SourceSample) -> [GeneratedCodeSignal] {
        let ext = PathText.pathExtension(of: path).lowercased()
        if pythonExtensions.contains(ext) { return GeneratedHeader.matches(sample, python: true) ? [.generatedHeader] : [] }
        guard scriptExtensions.contains(ext) else { return [] }
        var found: [GeneratedCodeSignal] = []
        if MinifiedShape.matches(sample) { found.append(.minified) }
        if SourceMapTrailer.matches(sample) { found.append(.sourceMap) }
        if BundlerRuntime.matches(sample) { found.append(.bundlerRuntime) }
        if GeneratedHeader.matches(sample, python: false) { found.append(.generatedHeader) }
        if LibraryBanner.matches(sample) { found.append(.libraryBanner) }
        if HashedChunkName.matches(name: PathText.lastComponent(of: path)) && HashedChunkName.chunkContent(sample) {
            found.append(.hashedChunkName)
        }
        return found
    }

    /// Whether `signals` make a file generated: any signal that the classifier found counts (a
    /// hashed name is only found together with a chunk's content).
    static func isGenerated(_ signals: [GeneratedCodeSignal]) -> Bool { !signals.isEmpty }

    /// What a pull request's head must show for a file it adds to be left out
    /// (docs/SECURITY.md §1b): its whole content minified, and one more signal besides. A
    /// marker is a comment anyone can add to a file; rewriting the change itself into a
    /// minifier's lines is not hiding it from a reviewer, who sees the same unreadable file.
    static func isGeneratedAddition(_ signals: [GeneratedCodeSignal]) -> Bool {
        signals.contains(.minified) && signals.count >= 2
    }
}
