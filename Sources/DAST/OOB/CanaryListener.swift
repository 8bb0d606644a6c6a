import HTTP
import Support
import Synchronization

/// The canary: an HTTP listener outside the sandbox, through the one `HTTPResponder`,
/// that records which tokens targets fetched (`GET /TOKEN`) and answers each with
/// `sentinel-canary-TOKEN`, or under `/inc/` with harmless code (`CanaryRegistry.code(of:)`).
/// A few serving threads, however many connections a target opens.
public final class CanaryListener: Sendable {
    /// Threads answering fetches: a target that opens many connections waits, it does not get
    /// a thread each.
    static let threads = 4
    /// At most this many tokens are kept; a flood of fetches cannot grow the record further.
    static let maximumTokens = 10_000

    /// The port it listens on.
    public var port: Int { responder.port }
    private let record = TokenRecord()
    private let responder: HTTPResponder

    /// `http://HOST:PORT`, the base URL payloads name.
    public func base(host: String = "127.0.0.1") -> String { "http://\(host):\(port)" }

    /// Starts listening on `address` (loopback by default), an ephemeral port.
    public convenience init(address: String = "127.0.0.1") throws {
        try self.init(listening: try Self.listeningSocket(address: address))
    }

    /// Serves `fd`, a listening TCP socket made by `listeningSocket` (here, or by a root launcher
    /// on the host's side and lent to the analysis), which it now owns.
    public init(listening fd: Int32) throws {
        let record = self.record
        do {
            responder = try HTTPResponder(listening: fd, threads: Self.threads) { request in
                let token = request.map { Self.token(in: $0.target) } ?? ""
                if let request, !token.isEmpty {
                    record.hits.withLock {
                        if $0.count < Self.maximumTokens, $0[token] == nil { $0[token] = String(request.line.prefix(200)) }
                    }
                }
                let code = request.map { Self.servesCode($0.target) } ?? false
                return ResponderResponse(200, "OK", body: code ? CanaryRegistry.code(of: token).body : CanaryRegistry.echo(of: token))
            }
        } catch let error as SentinelError {
            throw SentinelError(error.code, "canary: \(error.message)")
        }
    }

    /// A TCP socket listening on `address` (where the target reaches this host), an ephemeral port.
    public static func listeningSocket(address: String) throws -> Int32 {
        do {
            return try HTTPResponder.listeningSocket(address: address, loopbackOnly: false)
        } catch let error as SentinelError {
            throw SentinelError(error.code, "canary: \(error.message)")
        }
    }

    /// The token a fetch names: the last path segment's leading letters and digits (at most 64).
    static func token(in target: String) -> String {
        let last = target.split(separator: "/").last.map { String($0.prefix(64)) } ?? ""
        return String(last.prefix { $0.isLetter || $0.isNumber })
    }

    /// True for a fetch under `/inc/` (`CanaryRegistry.codeURL`): it is answered with the
    /// token's code, for the file-inclusion check.
    static func servesCode(_ target: String) -> Bool {
        target.split(separator: "/").first.map(String.init) == CanaryRegistry.codeSegment
    }

    /// Tokens fetched so far, each with the first request line that named it.
    public var tokens: [String: String] { record.hits.withLock { $0 } }

    /// Stops listening and waits for the serving threads to end.
    public func stop() { responder.stop() }
}

/// The tokens fetched, shared by the serving threads' handler and the listener.
private final class TokenRecord: Sendable {
    let hits = Mutex<[String: String]>([:])
}
