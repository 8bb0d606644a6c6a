import Findings
import Synchronization

/// The worker's side of out-of-band confirmation: each SSRF or XXE payload names a fresh token
/// under the canary's URL, and the finding it would prove is kept with the token. When the
/// target fetches the URL, the canary (in the parent, outside the sandbox) records the token
/// and the parent turns the probe into a finding. A target that echoes what it fetched is
/// confirmed at once, in band.
public final class CanaryRegistry: Sendable {
    /// `http://127.0.0.1:PORT`: where the canary listens.
    public let base: String
    private let probes = Mutex<[OOBProbe]>([])

    /// A registry for the canary at `base`.
    public init(base: String) {
        self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
    }

    /// A fresh URL for `finding`, recorded under its token.
    public func url(token: String, proving finding: Finding) -> String {
        probes.withLock { if $0.count < 20_000 { $0.append(OOBProbe(token: token, finding: finding)) } }
        return "\(base)/\(token)"
    }

    /// The text the canary answers for `token`: seen in a response, the target echoed the fetch.
    public static func echo(of token: String) -> String { "sentinel-canary-\(token)" }

    /// The first path segment under which the canary serves code rather than the echo.
    public static let codeSegment = "inc"

    /// A URL under which the canary serves `token`'s code (no finding is kept: a fetch of it
    /// proves only what the SSRF check's own URL proves).
    public func codeURL(token: String) -> String { "\(base)/\(Self.codeSegment)/\(token)" }

    /// The harmless code served for `token` and the number it prints: the product of two
    /// factors, which only running the code writes out (the text holds the factors). PHP runs
    /// what is between its tags and prints the rest as it is; Python, Ruby and Perl take the `#`
    /// line for a comment and print the product. The factors come from the token (FNV-1a), so
    /// the canary, in another process, serves what the check expects without being told.
    public static func code(of token: String) -> (body: String, product: Int) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in token.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01b3 }
        let a = 10_000 + Int(hash % 90_000)
        let b = 10_000 + Int((hash >> 32) % 90_000)
        return ("#<?php echo \(a)*\(b); ?>\nprint(\(a)*\(b))\n", a * b)
    }

    /// Every probe sent.
    public var all: [OOBProbe] { probes.withLock { $0 } }
}

/// One out-of-band probe: the token in the URL the payload named, and the finding a hit proves.
public struct OOBProbe: Sendable, Codable, Hashable {
    /// The token (a marker) in the canary URL's path.
    public var token: String
    /// The finding, reported when the canary sees the token.
    public var finding: Finding
}
