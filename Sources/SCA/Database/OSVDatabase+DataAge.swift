import Foundation
import Support

/// How current one ecosystem's advisory data is by its own dates: the newest `modified` of its
/// records. The import time says nothing about the data (an old export imported today is old).
public struct DataAge: Sendable, Hashable {
    /// The export name (`PyPI`; `Debian:11` records count for `Debian`).
    public var ecosystem: String
    /// The newest `modified` among its records, as written.
    public var newestModified: String
    /// The same instant.
    public var newestDate: Date

    /// Seconds from the newest `modified` to `now` (never negative).
    public func seconds(at now: Date = Date()) -> Double {
        max(0, now.timeIntervalSince(newestDate))
    }
}

extension OSVDatabase {
    /// The age of the export `ecosystem`'s data; nil when it has no record. Dates past now plus
    /// a day of clock skew are not trusted: a copy dated 2999 would look current for good.
    public func dataAge(of ecosystem: String, now: Date = Date()) throws -> DataAge? {
        let q = try connection.prepare(
            """
            SELECT DISTINCT r.modified_key, r.modified FROM records r JOIN affected a ON a.rid = r.rid
            WHERE (a.ecosystem = ?1 OR substr(a.ecosystem, 1, length(?1) + 1) = ?1 || ':') AND r.modified_key <= ?2
            ORDER BY r.modified_key DESC
            """)
        q.bind(1, ecosystem)
        q.bind(2, OSVTimestamp.sortKey(of: now.addingTimeInterval(RecordWriter.skew)))
        // Keys of dates in another zone are kept as written; the newest one that reads as UTC wins.
        while try q.step() {
            guard let key = q.text(0), let date = Self.date(ofSortKey: key) else { continue }
            return DataAge(ecosystem: ecosystem, newestModified: q.text(1) ?? key, newestDate: date)
        }
        return nil
    }

    /// The instant of a normalised key (`YYYY-MM-DDTHH:MM:SS.fffffffffZ`); nil for other text.
    static func date(ofSortKey key: String) -> Date? {
        guard key.utf8.count == 30, key.hasSuffix("Z") else { return nil }
        return UTCTimestamp.date(secondsPrefixOf: key)
    }
}
