/// What in a file's content (or name) says that a tool wrote it rather than a person: each is
/// one detector in this folder, and the summary names the ones that matched.
public enum GeneratedCodeSignal: String, Sendable, Codable, Hashable, CaseIterable, Comparable {
    /// Its code stands on a few very long lines with little whitespace (`MinifiedShape`).
    case minified
    /// It ends with a `//# sourceMappingURL=` comment: a compiler or bundler wrote it from
    /// another source (`SourceMapTrailer`).
    case sourceMap = "source map"
    /// It carries a bundler's runtime: webpack's bootstrap, a Parcel, Browserify, esbuild or Vite
    /// prelude, a UMD factory wrapper (`BundlerRuntime`).
    case bundlerRuntime = "bundler runtime"
    /// A comment at its top says it is generated (`@generated`, `DO NOT EDIT`, the protocol
    /// buffer compiler's header) (`GeneratedHeader`).
    case generatedHeader = "generated header"
    /// It opens with a library's license banner naming a version (`/*! jQuery v3.7.1 | (c) ...`):
    /// a vendored release (`LibraryBanner`).
    case libraryBanner = "library banner"
    /// Its name carries a build's content hash (`index-4f3a9c1b.js`); counted only together
    /// with a chunk's content (`HashedChunkName`).
    case hashedChunkName = "hashed chunk name"
    /// It is a byte-identical copy, under a build output directory, of a file scanned elsewhere
    /// (`BuildCopies`): the source is analysed, the copy would repeat its findings.
    case buildCopy = "copy of a scanned file"

    /// The signal as the summary names it.
    public var title: String { rawValue }

    /// Whether the signal alone makes a file generated: every one but the hashed name, which
    /// a hand-written file may happen to match (`settings-2a4b6c8d.js`).
    public var isConclusive: Bool { self != .hashedChunkName }

    /// In the order the summary lists them.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
