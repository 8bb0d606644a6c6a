import Foundation
import ScanCore
import Support
import Testing

@testable import Sandbox

#if canImport(Glibc)
    import Glibc
#endif

/// The lean launcher reads no YAML: a YAML profile reaches it through the run cache, which a
/// full reader filled, and only for exactly the bytes that reader parsed.
@Suite struct ProfileDocumentCacheTests {
    /// A fresh directory of ours, mode 0700, as the launcher's private run directory is.
    static func privateDirectory() throws -> String {
        var template = Array((NSTemporaryDirectory() + "profile-cache-XXXXXX").utf8CString)
        try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) } != nil)
        return String(cString: template)
    }

    /// A profile file holding `text`, in a directory of its own.
    static func profileFile(_ text: String, name: String = "custom.yaml") throws -> String {
        let directory = try privateDirectory()
        try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/" + name))
        return directory + "/" + name
    }

    static func yaml(memory: String = "256M") -> String {
        """
        # \(UUID().uuidString)
        name: custom
        description: a profile of this test's own
        filesystem:
          workspace: rw
        limits:
          memory: \(memory)
          pids: 32
        """
    }

    static func entries(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("profile-") }
    }

    @Test func aYAMLProfileLoadedOnceIsReadWithoutYAMLAfterwards() throws {
        let cache = try Self.privateDirectory()
        let path = try Self.profileFile(Self.yaml())
        #expect(throws: ProfileSyntax.Unsupported.self) {
            try ProfileLoader.load(path: path, syntax: .jsonOnly(reader: ExecutableIdentity.current), cache: cache)
        }
        let parsed = try ProfileLoader.load(path: path, syntax: .yaml, cache: cache)
        #expect(parsed.limits.memoryBytes == 256 << 20 && parsed.filesystem.workspace == .rw)
        #expect(try Self.entries(cache).count == 1)
        let cached = try ProfileLoader.load(path: path, syntax: .jsonOnly(reader: ExecutableIdentity.current), cache: cache)
        #expect(cached == parsed)
    }

    @Test func anEditedProfileIsNeverAnsweredFromTheCache() throws {
        let cache = try Self.privateDirectory()
        let path = try Self.profileFile(Self.yaml(memory: "256M"))
        _ = try ProfileLoader.load(path: path, syntax: .yaml, cache: cache)
        try Data(Self.yaml(memory: "128M").utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: ProfileSyntax.Unsupported.self) {
            try ProfileLoader.load(path: path, syntax: .jsonOnly(reader: ExecutableIdentity.current), cache: cache)
        }
        #expect(try ProfileLoader.load(path: path, syntax: .yaml, cache: cache).limits.memoryBytes == 128 << 20)
    }

    @Test func aJSONProfileNeedsNoYAMLReader() throws {
        let path = try Self.profileFile(#"{"name": "custom", "limits": {"pids": "16"}}"#, name: "custom.json")
        let profile = try ProfileLoader.load(path: path, syntax: .jsonOnly(reader: ExecutableIdentity.current), cache: nil)
        #expect(profile.name == "custom" && profile.limits.pids == 16)
    }

    /// Only documents that made a valid profile are stored, so errors always come from the
    /// parser, naming the source's line.
    @Test func anInvalidProfileIsNotCachedAndItsErrorNamesItsLine() throws {
        let cache = try Self.privateDirectory()
        let path = try Self.profileFile("name: custom\nlimits:\n  pids: lots\n")
        #expect {
            try ProfileLoader.load(path: path, syntax: .yaml, cache: cache)
        } throws: { error in
            (error as? SentinelError)?.message.hasPrefix("\(path):3: limits.pids") == true
        }
        #expect(try Self.entries(cache).isEmpty)
        #expect(throws: ProfileSyntax.Unsupported.self) {
            try ProfileLoader.load(path: path, syntax: .jsonOnly(reader: ExecutableIdentity.current), cache: cache)
        }
    }

    @Test func aDamagedEntryIsNotRead() throws {
        let cache = try Self.privateDirectory()
        let path = try Self.profileFile(Self.yaml())
        _ = try ProfileLoader.load(path: path, syntax: .yaml, cache: cache)
        let entry = try #require(try Self.entries(cache).first)
        let url = URL(fileURLWithPath: cache + "/" + entry)
        var bytes = try Array(Data(contentsOf: url))
        // "256" in the document's JSON becomes "956": still JSON, still a valid profile.
        let json = try #require(ByteSearch.occurrences(of: Array("\"256M\"".utf8), in: bytes[...]).last)
        bytes[json + 1] = UInt8(ascii: "9")
        try FileManager.default.removeItem(at: url)
        #expect(FileManager.default.createFile(atPath: url.path, contents: Data(bytes), attributes: [.posixPermissions: 0o600]))
        #expect(throws: ProfileSyntax.Unsupported.self) {
            try ProfileLoader.load(path: path, syntax: .jsonOnly(reader: ExecutableIdentity.current), cache: cache)
        }
    }

    /// The lean launcher names the reader it hands over to; a rebuilt reader has another
    /// identity, and never meets the documents of the old one.
    @Test func aDocumentIsReadOnlyForTheReaderThatStoredIt() throws {
        let cache = try Self.privateDirectory()
        let path = try Self.profileFile(Self.yaml())
        let parsed = try ProfileLoader.load(path: path, syntax: .yaml, cache: cache)
        #expect(try ProfileLoader.load(path: path, syntax: .jsonOnly(reader: ExecutableIdentity.current), cache: cache) == parsed)
        #expect(throws: ProfileSyntax.Unsupported.self) {
            try ProfileLoader.load(path: path, syntax: .jsonOnly(reader: [1, 2, 3]), cache: cache)
        }
        #expect(throws: ProfileSyntax.Unsupported.self) {
            try ProfileLoader.load(path: path, syntax: .jsonOnly(reader: nil), cache: cache)
        }
    }

    @Test func storingKeepsTheNewestEntries() throws {
        let cache = try Self.privateDirectory()
        let document = try ProfileSyntax.yaml.parse(Array(Self.yaml().utf8), "x.yaml")
        ProfileDocumentCache.store(document, source: [1], in: cache, reader: [0xAA])
        ProfileDocumentCache.store(document, source: [2], in: cache, reader: [0xBB])
        // Another reader's store leaves the first reader's entry alone.
        #expect(ProfileDocumentCache.load(source: [1], in: cache, reader: [0xAA]) != nil)
        #expect(ProfileDocumentCache.load(source: [1], in: cache, reader: [0xBB]) == nil)
        let last = 3 + ProfileDocumentCache.maximumEntries
        for source in 3...last {
            ProfileDocumentCache.store(document, source: [UInt8(source)], in: cache, reader: [0xBB])
        }
        #expect(try Self.entries(cache).count == ProfileDocumentCache.maximumEntries)
        #expect(ProfileDocumentCache.load(source: [UInt8(last)], in: cache, reader: [0xBB]) != nil)
    }
}
