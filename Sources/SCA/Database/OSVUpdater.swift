#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import HTTP
import Support

/// Refreshes ecosystems from the OSV project's per-ecosystem exports (`BASE/<ecosystem>/all.zip`)
/// with conditional requests: an export whose `ETag`/`Last-Modified` still matches answers `304`
/// and is not downloaded or imported again. A download goes to a temporary file beside the
/// database and is imported in one transaction, so a failed or damaged download changes nothing.
public struct OSVUpdater: Sendable {
    /// The public OSV export bucket.
    public static let defaultBaseURL = "https://osv-vulnerabilities.storage.googleapis.com"
    /// What `sentinel db update` refreshes when the database holds no ecosystem yet.
    public static let defaultEcosystems = ["PyPI", "npm", "Go", "crates.io", "Maven", "RubyGems", "Packagist", "NuGet"]

    /// The export bucket's URL; `<base>/<ecosystem>/all.zip` is downloaded.
    public var baseURL: String
    /// The largest export accepted.
    public var maxBytes: Int64
    /// One download's time limit, seconds.
    public var timeout: Double

    /// Makes an updater; by default the public bucket, 2 GiB per export, 30 minutes per download.
    public init(baseURL: String = OSVUpdater.defaultBaseURL, maxBytes: Int64 = 2 << 30, timeout: Double = 1_800) {
        self.baseURL = baseURL
        self.maxBytes = maxBytes
        self.timeout = timeout
    }

    /// What happened to one ecosystem.
    public enum Outcome: Sendable, Hashable {
        /// Downloaded and imported.
        case imported(ImportReport)
        /// `304 Not Modified`: the stored data is current.
        case notModified
        /// Nothing changed in the database; the message names the URL and the problem.
        case failed(String)
    }

    /// The export URL of `ecosystem`.
    public func url(of ecosystem: String) -> String {
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        let name = ecosystem.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? ecosystem
        return "\(base)/\(name)/all.zip"
    }

    /// Refreshes one ecosystem. Database failures throw; download and archive problems are
    /// reported as `.failed` so that the other ecosystems still update.
    /// - Parameter progress: told each stage as it starts (`downloading`, `importing`).
    public func update(
        _ ecosystem: String, in database: OSVDatabase, now: Date = Date(), progress: @Sendable (String) -> Void = { _ in }
    ) throws -> Outcome {
        let url = url(of: ecosystem)
        var headers: [String: String] = [:]
        // Validators belong to the URL they came from.
        if let feed = try database.feed(ecosystem), feed.source == url {
            if let etag = feed.etag { headers["If-None-Match"] = etag }
            if let lastModified = feed.lastModified { headers["If-Modified-Since"] = lastModified }
        }
        let directory = PathText.directory(of: database.path)
        let temporary = try Self.temporaryFile(in: directory.isEmpty ? "." : directory)
        defer { unlink(temporary) }

        let response: HTTPResponse
        progress("downloading")
        do {
            response = try HTTPClient.get(
                HTTPRequest(url: url, headers: headers, timeout: timeout, maxBytes: maxBytes),
                to: temporary)
        } catch let error as SentinelError where error.code == .network || error.code == .io {
            return .failed(error.message)
        }
        switch response.status {
        case 304:
            guard var feed = try database.feed(ecosystem) else { return .failed("GET \(url): 304 without a stored copy") }
            feed.refreshedAt = now
            try database.recordFeed(feed)
            return .notModified
        case 200:
            let feed = FeedState(
                ecosystem: ecosystem, source: url, etag: response.etag,
                lastModified: response.lastModified, refreshedAt: now)
            progress("importing")
            do {
                return .imported(try database.importExport(zip: temporary, label: url, feed: feed))
            } catch let error as SentinelError where error.code == .invalidInput || error.code == .unsupported {
                return .failed(error.message)
            }
        default:
            return .failed("GET \(url): HTTP \(response.status)")
        }
    }

    /// A fresh `0600` file beside the database (never a fixed name in a shared directory).
    static func temporaryFile(in directory: String) throws -> String {
        var template = Array((directory + "/.osv-export-XXXXXX.zip").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
        guard fd >= 0 else {
            throw SentinelError(.io, "\(directory): cannot create a temporary file: \(Errno.current)", errno: .current)
        }
        close(fd)
        return String(nulTerminated: template)
    }
}
