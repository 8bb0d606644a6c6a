import Findings
import Foundation
import Support

/// What a scan run by a worker hands back: the report itself (so `fleet results` renders JSON or
/// SARIF from the database as `scan` would) and where SARIF paths are relative to.
public struct ScanRecord: Sendable, Hashable, Codable {
    /// The report.
    public var report: Report
    /// The directory scanned.
    public var directory: String
    /// The repository root and the scan root's place below it, for SARIF; nil outside a repository.
    public var repositoryRoot: String?
    /// The scan root's path below `repositoryRoot`.
    public var repositoryPrefix: String?

    /// A record; see the properties.
    public init(report: Report, directory: String, repositoryRoot: String? = nil, repositoryPrefix: String? = nil) {
        self.report = report
        self.directory = directory
        self.repositoryRoot = repositoryRoot
        self.repositoryPrefix = repositoryPrefix
    }

    /// The record as stored.
    public func encoded() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// Reads a stored record (a worker's output file or the results table).
    public static func decode(_ data: Data, name: String) throws -> ScanRecord {
        do {
            return try JSONDecoder().decode(ScanRecord.self, from: data)
        } catch {
            throw SentinelError(.invalidInput, "\(name): not a scan record: \(error)")
        }
    }
}
