import Foundation
import Support

/// One OSV advisory, reduced to what matching and reporting need.
public struct OSVRecord: Sendable, Hashable {
    /// The OSV id (`PYSEC-2021-59`, `GHSA-…`).
    public var id: String
    /// RFC 3339 timestamp as written; `modifiedKey` is the comparable form.
    public var modified: String
    /// `published` as written, when given.
    public var published: String?
    /// `withdrawn` as written: a withdrawn record matches nothing.
    public var withdrawn: String?
    /// Other ids of the same vulnerability (CVE, GHSA).
    public var aliases: [String]
    /// The one-line summary, when given.
    public var summary: String?
    /// The long description, when given.
    public var details: String?
    /// The record-level severity entries (CVSS vectors by type).
    public var severity: [OSVSeverity]
    /// The packages it affects, with their ranges and versions.
    public var affected: [OSVAffected]
    /// Links (advisory, fix, report).
    public var references: [OSVReference]
    /// The record's top-level `database_specific.severity` (GHSA style `HIGH`), when present.
    public var databaseSeverity: String?

    /// A record; see the properties.
    public init(
        id: String, modified: String, published: String? = nil, withdrawn: String? = nil,
        aliases: [String] = [], summary: String? = nil, details: String? = nil,
        severity: [OSVSeverity] = [], affected: [OSVAffected] = [], references: [OSVReference] = [],
        databaseSeverity: String? = nil
    ) {
        self.id = id
        self.modified = modified
        self.published = published
        self.withdrawn = withdrawn
        self.aliases = aliases
        self.summary = summary
        self.details = details
        self.severity = severity
        self.affected = affected
        self.references = references
        self.databaseSeverity = databaseSeverity
    }

    /// `modified` normalised so that string order is time order.
    public var modifiedKey: String { OSVTimestamp.sortKey(modified) }
}

/// A `severity[]` entry: `type` (`CVSS_V3`, `CVSS_V4`, `Ubuntu`, ...) and its `score` text.
public struct OSVSeverity: Sendable, Hashable, Codable {
    /// `CVSS_V3`, `CVSS_V4`, `CVSS_V2` or another scheme name.
    public var type: String
    /// The vector (or score) text in that scheme.
    public var score: String
    /// A severity entry.
    public init(type: String, score: String) { self.type = type; self.score = score }
}

/// A `references[]` entry.
public struct OSVReference: Sendable, Hashable, Codable {
    /// `ADVISORY`, `FIX`, `REPORT`, `WEB`, ...
    public var type: String
    /// The link.
    public var url: String
    /// A reference.
    public init(type: String, url: String) { self.type = type; self.url = url }
}

/// An `affected[]` entry: one package and the versions of it the advisory covers.
public struct OSVAffected: Sendable, Hashable {
    /// The ecosystem name (`PyPI`, `crates.io`, `Go`, ...), possibly with a `:suffix`.
    public var ecosystem: String
    /// The package name as the ecosystem spells it.
    public var name: String
    /// The package URL, when given.
    public var purl: String?
    /// Affected ranges (`ECOSYSTEM`, `SEMVER`, `GIT`).
    public var ranges: [OSVRange]
    /// The explicit `versions` list, as written (often unsorted).
    public var versions: [String]
    /// `database_specific.severity` or `ecosystem_specific.severity`, when present.
    public var severity: String?
    /// Set when `versions` already holds equality keys (as stored in the database), so that
    /// membership is a plain string lookup.
    var versionsAreKeys = false
    /// The equality keys as stored (`\nkey\nkey\n`), searched directly instead of splitting.
    var versionKeysText: String?

    /// An affected package; see the properties.
    public init(
        ecosystem: String, name: String, purl: String? = nil, ranges: [OSVRange] = [],
        versions: [String] = [], severity: String? = nil
    ) {
        self.ecosystem = ecosystem
        self.name = name
        self.purl = purl
        self.ranges = ranges
        self.versions = versions
        self.severity = severity
    }
}

/// A `ranges[]` entry.
public struct OSVRange: Sendable, Hashable {
    /// `ECOSYSTEM`, `SEMVER` or `GIT`.
    public var type: String
    /// The range's events in order (`introduced`, `fixed`, `last_affected`, `limit`).
    public var events: [OSVEvent]
    /// A range of `type` with `events`.
    public init(type: String, events: [OSVEvent]) { self.type = type; self.events = events }
}

/// One event of a range's timeline.
public enum OSVEvent: Sendable, Hashable {
    case introduced(String)
    case fixed(String)
    case lastAffected(String)
    case limit(String)

    /// The version the event names.
    public var version: String {
        switch self {
        case .introduced(let v), .fixed(let v), .lastAffected(let v), .limit(let v): return v
        }
    }
}

/// RFC 3339 timestamps compared as text after normalisation.
enum OSVTimestamp {
    /// `date` as a sort key.
    /// (Written by `UTCTimestamp`: an `ISO8601DateFormatter` costs an ICU date format per lookup.)
    static func sortKey(of date: Date) -> String { sortKey(UTCTimestamp.string(date, milliseconds: false)) }

    /// Whether `text` (a `withdrawn` date) is set and not later than `now` (a sort key). A date
    /// in the future is not a withdrawal yet: the OSV schema's `withdrawn` says when it was withdrawn.
    static func isPast(_ text: String?, now: String) -> Bool {
        guard let text else { return false }
        return sortKey(text) <= now
    }

    /// `YYYY-MM-DDTHH:MM:SS.ffffffZ` (fraction padded to 9 digits) for UTC times, which is what OSV
    /// writes; other text is returned unchanged.
    static func sortKey(_ text: String) -> String {
        let t = text.trimmingASCIISpaces()
        let u = Array(t.utf8)
        guard u.count >= 19, u[10] == 0x54 || u[10] == 0x74 || u[10] == 0x20 else { return t }
        var head = String(decoding: u[0..<19], as: UTF8.self)
        head = head.replacingOccurrences(of: " ", with: "T").replacingOccurrences(of: "t", with: "T")
        var rest = u[19...]
        var fraction = ""
        if rest.first == 0x2E {
            rest = rest.dropFirst()
            let digits = rest.prefix { $0 >= 0x30 && $0 <= 0x39 }
            fraction = String(decoding: digits, as: UTF8.self)
            rest = rest.dropFirst(digits.count)
        }
        let zone = String(decoding: rest, as: UTF8.self)
        guard zone == "Z" || zone == "z" || zone == "+00:00" || zone.isEmpty else { return t }
        let padded = (fraction + String(repeating: "0", count: 9)).prefix(9)
        return "\(head).\(padded)Z"
    }
}
