import Documents

/// How a profile file's bytes become its document. The lean `sentinel` launcher links no YAML
/// reader (Yams brings Foundation's NS* layer and ICU, a fifth of a launch), so it reads JSON,
/// and YAML profiles from the run cache (`ProfileDocumentCache`); everything else reads YAML
/// too (`ScanCore`'s `.yaml`).
public struct ProfileSyntax: Sendable {
    /// The document of `bytes`, read from the file `source` names; throws `SentinelError`
    /// naming the file and the line.
    public let parse: @Sendable (_ bytes: [UInt8], _ source: String) throws -> DocumentNode
    /// Whether this syntax reads only part of what profiles may be written in: its failure
    /// throws `ProfileSyntax.Unsupported`, for a caller with a fuller reader to take over.
    public let isPartial: Bool
    /// The identity (`ExecutableIdentity`) of the full reader whose documents this syntax takes
    /// from the run cache and stores there; nil for none.
    public let cacheIdentity: [UInt8]?

    /// A syntax reading through `parse`, sharing the run cache's documents of `cacheIdentity`.
    public init(
        isPartial: Bool, cacheIdentity: [UInt8]?,
        parse: @escaping @Sendable (_ bytes: [UInt8], _ source: String) throws -> DocumentNode
    ) {
        self.isPartial = isPartial
        self.cacheIdentity = cacheIdentity
        self.parse = parse
    }

    /// JSON only: YAML profiles come from the run cache, as the full reader of identity
    /// `reader` (the `sentinel-cli` the lean launcher hands over to) parsed them, or not at all.
    public static func jsonOnly(reader: [UInt8]?) -> ProfileSyntax {
        ProfileSyntax(isPartial: true, cacheIdentity: reader) { bytes, source in try JSON.parse(bytes, file: source) }
    }

    /// A profile this syntax cannot read (and the run cache does not hold): the lean launcher
    /// hands the whole command to `sentinel-cli`, whose YAML reader reads it or says what is wrong.
    public struct Unsupported: Error, Sendable {
        /// The profile file.
        public let path: String
    }
}
