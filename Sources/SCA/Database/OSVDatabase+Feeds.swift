import Foundation
import Support

/// Where one ecosystem's advisories last came from and when they were last known current:
/// an OSV export URL with its validators (`ETag`, `Last-Modified`) for conditional requests, or
/// a local import.
public struct FeedState: Sendable, Hashable {
    /// The export's ecosystem name (`PyPI`, `crates.io`); empty in an import request means
    /// "every ecosystem the import touched".
    public var ecosystem: String
    /// The export URL, or `import PATH` for `sentinel db import`.
    public var source: String
    /// The export's `ETag` at the last download, sent as `If-None-Match`; nil when unknown.
    public var etag: String?
    /// The export's `Last-Modified` at the last download; nil when unknown.
    public var lastModified: String?
    /// When the data was last imported or confirmed unchanged (`304`).
    public var refreshedAt: Date

    /// Makes a feed record, refreshed now by default.
    public init(
        ecosystem: String, source: String, etag: String? = nil, lastModified: String? = nil,
        refreshedAt: Date = Date()
    ) {
        self.ecosystem = ecosystem
        self.source = source
        self.etag = etag
        self.lastModified = lastModified
        self.refreshedAt = refreshedAt
    }

    /// An age for people: `45m`, `5h` (under two days), `3d`.
    public static func describeAge(_ seconds: Double) -> String {
        let value = max(0, seconds)
        if value < 3_600 { return "\(Int(value / 60))m" }
        if value < 2 * 86_400 { return "\(Int(value / 3_600))h" }
        return "\(Int(value / 86_400))d"
    }

    /// The export an affected ecosystem belongs to: `Debian:11` is in the `Debian` export.
    public static func exportName(_ ecosystem: String) -> String {
        String(ecosystem.split(separator: ":", maxSplits: 1).first ?? Substring(ecosystem))
    }
}

extension OSVDatabase {
    /// Every ecosystem's feed state, by name.
    public func feeds() throws -> [FeedState] {
        let q = try connection.prepare(
            "SELECT ecosystem, source, etag, last_modified, refreshed_at FROM feeds ORDER BY ecosystem")
        var result = [FeedState]()
        while try q.step() {
            result.append(
                FeedState(
                    ecosystem: q.text(0) ?? "", source: q.text(1) ?? "", etag: q.text(2),
                    lastModified: q.text(3), refreshedAt: Date(timeIntervalSince1970: Double(q.int(4)))))
        }
        return result
    }

    /// One ecosystem's feed state; nil when it was never imported or updated.
    public func feed(_ ecosystem: String) throws -> FeedState? {
        try feeds().first { $0.ecosystem == ecosystem }
    }

    /// The export names of the ecosystems that have records.
    public func storedEcosystems() throws -> [String] {
        let q = try connection.prepare("SELECT DISTINCT ecosystem FROM affected")
        var names = Set<String>()
        while try q.step() { names.insert(FeedState.exportName(q.text(0) ?? "")) }
        names.remove("")
        return names.sorted()
    }

    /// Records that the stored data of `feed.ecosystem` is current as of `feed.refreshedAt`
    /// (a `304 Not Modified`), in its own statement.
    public func recordFeed(_ feed: FeedState) throws {
        try writeFeed(feed)
    }

    /// Upserts a feed row; an import from a path keeps the URL's validators, which stay true
    /// for that URL (newer-wins importing never moves data backwards).
    func writeFeed(_ feed: FeedState) throws {
        let isURL = feed.source.hasPrefix("http://") || feed.source.hasPrefix("https://")
        let q = try connection.prepare(
            isURL
                ? """
                INSERT INTO feeds(ecosystem, source, etag, last_modified, refreshed_at) VALUES (?1, ?2, ?3, ?4, ?5)
                ON CONFLICT(ecosystem) DO UPDATE SET source = ?2, etag = ?3, last_modified = ?4, refreshed_at = ?5
                """
                : """
                INSERT INTO feeds(ecosystem, source, etag, last_modified, refreshed_at) VALUES (?1, ?2, ?3, ?4, ?5)
                ON CONFLICT(ecosystem) DO UPDATE SET source = ?2, refreshed_at = ?5
                """)
        q.bind(1, feed.ecosystem)
        q.bind(2, feed.source)
        q.bind(3, feed.etag)
        q.bind(4, feed.lastModified)
        q.bind(5, Int64(feed.refreshedAt.timeIntervalSince1970.rounded(.down)))
        _ = try q.step()
    }
}
