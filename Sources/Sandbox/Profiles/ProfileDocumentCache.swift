import Documents
import Support

/// Profiles' documents as a full reader parsed them, kept in the launcher's run cache
/// (`RunCacheFile`) as JSON: the lean launcher, which reads no YAML, takes a YAML profile's
/// document from here; everyone else skips Yams' ~0.6 ms over the default profile.
///
/// Entries belong to the full reader that parsed them (its `ExecutableIdentity`: the lean
/// launcher names the `sentinel-cli` it hands over to, which names itself), so a rebuilt or
/// reinstalled reader never meets the documents of another. An entry holds the whole source it
/// was parsed from and is used only for exactly those bytes: its key (FNV-1a hashes of the
/// reader's identity and of the source) just names the file. Only documents
/// that made a valid profile are stored; the loader validates a cached document again, as it
/// would a parsed one, and parses the source itself when that fails, so that errors keep naming
/// the source's lines. Storing keeps the newest `maximumEntries` entries of every reader, so a
/// removed or rebuilt reader's entries age out without one reader's store taking another's.
enum ProfileDocumentCache {
    private static let magic = Array("SENTINEL-PROFILE-1\n".utf8)
    private static let prefix = "profile-"
    private static let suffix = ".json"
    /// The profile loader's own limit on a profile file.
    static let sourceLimit = 1 << 20
    /// Room for the source and its document's JSON (escapes can make it six times longer).
    private static let bodyLimit = 8 + sourceLimit + 8 * sourceLimit
    /// Entries kept at most (one per profile file a host launches with).
    static let maximumEntries = 32

    /// The key of `source` for `reader`: the reader's hash, then the source's.
    static func key(source: [UInt8], reader: [UInt8]) -> [UInt8] {
        Array((RunCacheFile.checksumText(reader) + "-" + RunCacheFile.checksumText(source)).utf8)
    }

    /// The file name the document of `key` is stored under.
    static func fileName(_ key: [UInt8]) -> String {
        prefix + String(decoding: key, as: UTF8.self) + suffix
    }

    /// The document stored for exactly `source` in `directory`, or nil.
    static func load(source: [UInt8], in directory: String, reader: [UInt8]) -> DocumentNode? {
        let key = key(source: source, reader: reader)
        guard source.count <= sourceLimit,
            let body = RunCacheFile.load(fileName(key), magic: magic, key: key, in: directory, bodyLimit: bodyLimit),
            body.count >= 8
        else { return nil }
        let length = LittleEndian.value(body[0..<8])
        guard length == UInt64(source.count), body.count >= 8 + source.count,
            body[8..<8 + source.count].elementsEqual(source)
        else { return nil }
        return try? JSON.parse(Array(body[(8 + source.count)...]), file: fileName(key))
    }

    /// Stores `document`, parsed from `source`, in `directory`; failures are ignored.
    static func store(_ document: DocumentNode, source: [UInt8], in directory: String, reader: [UInt8]) {
        guard source.count <= sourceLimit else { return }
        let key = key(source: source, reader: reader)
        let body =
            LittleEndian.bytes(UInt64(source.count)) + source
            + JSONWriter.bytes(document, style: .compact, sortKeys: false)
        RunCacheFile.store(
            body, name: fileName(key), magic: magic, key: key, in: directory,
            stale: RunCacheFile.beyondNewest(maximumEntries, prefix: prefix, suffix: suffix))
    }
}
