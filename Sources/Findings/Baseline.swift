#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Support

/// Findings that are known and accepted, by fingerprint (`--write-baseline`, then `--baseline`).
/// The file also records rule id and file of each entry so that people can review it.
public struct Baseline: Sendable, Codable, Hashable {
    /// One accepted finding.
    public struct Entry: Sendable, Codable, Hashable, Comparable {
        /// The accepted finding's fingerprint; the only field matching uses.
        public var fingerprint: String
        /// The rule that produced it, for humans reviewing the file.
        public var ruleId: String
        /// The file (or URL) it was in, for humans; matching uses only the fingerprint.
        public var file: String?

        /// Makes an entry; `file` is the finding's file or URL, nil when it has neither.
        public init(fingerprint: String, ruleId: String, file: String?) {
            self.fingerprint = fingerprint
            self.ruleId = ruleId
            self.file = file
        }

        /// Orders by file, then rule id, then fingerprint, so the written file is stable.
        public static func < (a: Entry, b: Entry) -> Bool {
            ((a.file ?? ""), a.ruleId, a.fingerprint) < ((b.file ?? ""), b.ruleId, b.fingerprint)
        }
    }

    /// Marks the file type, so a random JSON file is not mistaken for a baseline.
    public static let formatName = "sentinel-baseline"
    /// The current version of the file format.
    public static let currentVersion = 1

    /// The file type marker; `formatName` in a valid baseline.
    public var format: String
    /// The file format version; `currentVersion` when written by this build.
    public var version: Int
    /// The accepted findings, sorted.
    public var entries: [Entry]

    /// A baseline accepting `findings` (duplicates removed, entries sorted so diffs stay small).
    public init(findings: [Finding]) {
        format = Baseline.formatName
        version = Baseline.currentVersion
        let unique = Set(findings.map { Entry(fingerprint: $0.fingerprint, ruleId: $0.ruleId, file: $0.location.file ?? $0.location.url) })
        entries = unique.sorted()
        fingerprints = Set(entries.map(\.fingerprint))
    }

    /// The accepted fingerprints, indexed once so that filtering is linear in the findings.
    public private(set) var fingerprints: Set<String> = []

    private enum CodingKeys: String, CodingKey {
        case format, version, entries
    }

    /// Decodes a baseline file and indexes its fingerprints; throws when a key is missing or mistyped.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(String.self, forKey: .format)
        version = try container.decode(Int.self, forKey: .version)
        entries = try container.decode([Entry].self, forKey: .entries)
        fingerprints = Set(entries.map(\.fingerprint))
    }

    /// Whether `finding` is accepted.
    public func contains(_ finding: Finding) -> Bool {
        fingerprints.contains(finding.fingerprint)
    }

    /// Splits `findings` into those not in the baseline (`new`) and those in it (`known`).
    public func filter(_ findings: [Finding]) -> (new: [Finding], known: [Finding]) {
        var new: [Finding] = []
        var known: [Finding] = []
        for finding in findings {
            if fingerprints.contains(finding.fingerprint) { known.append(finding) } else { new.append(finding) }
        }
        return (new, known)
    }

    /// Pretty, key-sorted JSON of this baseline.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// Writes a baseline accepting `findings` to `output`, atomically.
    public static func write(_ findings: [Finding], to output: PreparedOutputFile) throws {
        let data: Data
        do {
            data = try Baseline(findings: findings).encoded()
        } catch {
            throw SentinelError(.io, "\(output.path): cannot encode baseline: \(error)")
        }
        try output.write(data)
    }

    /// Writes a baseline accepting `findings` to `path`, atomically.
    public static func write(_ findings: [Finding], to path: String) throws {
        try write(findings, to: PreparedOutputFile(path: path))
    }

    /// The largest baseline read (a million accepted findings fit well below it).
    public static let maxBytes = 256 << 20

    /// Reads a baseline. Throws `.invalidInput` naming `path` when it is missing, not JSON, or not
    /// a Sentinel baseline of a version this build understands.
    public static func load(_ path: String) throws -> Baseline {
        // A baseline usually lives in the repository: a FIFO or device there must not hang or feed the scan.
        let data: Data
        do {
            data = try BoundedFile.read(path, limit: maxBytes)
        } catch let error as SentinelError where error.errno?.rawValue == ENOENT || error.errno?.rawValue == EACCES {
            throw SentinelError(.invalidInput, "\(path): cannot read baseline (missing or unreadable)")
        } catch let error as SentinelError {
            throw SentinelError(.invalidInput, "\(error.message) (baseline)")
        }
        return try parse(data, name: path)
    }

    /// Reads a baseline's bytes (`name` in errors, as `load`'s path): a pull request's scan reads
    /// a baseline inside the tree from its base revision.
    public static func parse(_ data: Data, name path: String) throws -> Baseline {
        let baseline: Baseline
        do {
            baseline = try JSONDecoder().decode(Baseline.self, from: data)
        } catch let error as DecodingError {
            throw SentinelError(.invalidInput, "\(path): not a Sentinel baseline: \(describe(error))")
        } catch {
            throw SentinelError(.invalidInput, "\(path): not a Sentinel baseline: \(error)")
        }
        guard baseline.format == formatName else {
            throw SentinelError(.invalidInput, "\(path): not a Sentinel baseline: format is '\(baseline.format)', expected '\(formatName)'")
        }
        guard baseline.version == currentVersion else {
            throw SentinelError(
                .invalidInput, "\(path): unsupported baseline version \(baseline.version) (this build reads \(currentVersion))")
        }
        return baseline
    }

    /// A one-line reason for a decoding failure, with the JSON path when known.
    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.isEmpty ? "top level" : codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing key '\(key.stringValue)' at \(path(context.codingPath))"
        case .typeMismatch(let type, let context):
            return "expected \(type) at \(path(context.codingPath))"
        case .valueNotFound(let type, let context):
            return "missing \(type) value at \(path(context.codingPath))"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "invalid JSON" : "invalid value at \(path(context.codingPath))"
        @unknown default:
            return "invalid JSON"
        }
    }
}
