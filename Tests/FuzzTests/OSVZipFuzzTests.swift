import Support
import Testing

@testable import SCA

/// The OSV database's zip reader on mutated archives (stored and deflated entries), then each
/// entry decoded as an OSV record: a damaged or unsupported entry is a `SentinelError` the
/// importer reports and skips, never a trap.
@Suite struct OSVZipFuzzTests {
    static let record = Array(
        #"{"id":"PYSEC-1","modified":"2024-01-01T00:00:00Z","affected":[{"package":{"ecosystem":"PyPI","name":"z"},"ranges":[{"type":"ECOSYSTEM","events":[{"introduced":"0"},{"fixed":"2.0"}]}],"versions":["1.0"]}]}"#
            .utf8)

    /// A zip of `entries`, each stored (method 0) or raw-deflated (method 8), as an export has.
    static func zip(_ entries: [(String, [UInt8])], deflated: Bool) throws -> [UInt8] {
        func le(_ value: Int, _ width: Int) -> [UInt8] { (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        var body: [UInt8] = []
        var directory: [UInt8] = []
        for (name, contents) in entries {
            // zlib's stream minus its 2-byte header and 4-byte Adler-32 trailer is raw deflate.
            let data = deflated ? Array(try Compression.compress(contents).dropFirst(2).dropLast(4)) : contents
            let common =
                le(20, 2) + le(0, 2) + le(deflated ? 8 : 0, 2) + le(0, 4) + le(Int(Compression.crc(contents)), 4)
                + le(data.count, 4) + le(contents.count, 4) + le(name.utf8.count, 2) + le(0, 2)
            directory += le(0x0201_4b50, 4) + le(20, 2) + common + le(0, 6) + le(0, 4) + le(body.count, 4) + Array(name.utf8)
            body += le(0x0403_4b50, 4) + common + Array(name.utf8) + data
        }
        return body + directory + le(0x0605_4b50, 4) + le(0, 4) + le(entries.count, 2) + le(entries.count, 2)
            + le(directory.count, 4) + le(body.count, 4) + le(0, 2)
    }

    static func decode(_ bytes: [UInt8], name: String) throws {
        _ = try OSVDecoder.record(from: OSVDecoder.parseJSON(bytes, source: name), source: name)
    }

    static func read(_ bytes: [UInt8]) -> String? {
        let skippable: (any Error) -> Bool = {
            guard let error = $0 as? SentinelError else { return false }
            return error.code == .invalidInput || error.code == .unsupported
        }
        var archive: ZipArchive?
        if let broken = contractBroken(typed: { $0 is SentinelError }, { archive = try ZipArchive(path: "f.zip", bytes: bytes) }) {
            return broken
        }
        for entry in archive?.entries.prefix(16) ?? [] {
            var contents: [UInt8]?
            if let broken = contractBroken(typed: skippable, { contents = try archive?.contents(of: entry) }) { return broken }
            guard let contents else { continue }
            if let broken = contractBroken(typed: { $0 is SentinelError }, { try decode(contents, name: entry.name) }) {
                return broken
            }
        }
        return nil
    }

    @Test func mutatedArchives() throws {
        let entries = [("vulns/PYSEC-1.json", Self.record), ("vulns/", []), ("a.json", Array("{\"id\":".utf8))]
        let seeds = [try Self.zip(entries, deflated: false), try Self.zip(entries, deflated: true)]
        // The seeds themselves must read, or the mutants test nothing.
        #expect(try ZipArchive(path: "seed.zip", bytes: seeds[1]).entries.count == 3)
        let dictionary = ["PK\u{01}\u{02}", "PK\u{03}\u{04}", "PK\u{05}\u{06}", "PK\u{06}\u{06}", "PK\u{06}\u{07}", "\u{01}\u{00}"]
        let problems = fuzz(seeds: seeds, dictionary: dictionary, seed: 64, iterations: 800, Self.read)
        #expect(problems.isEmpty, "\(problems)")
    }
}
