import HTTP
import Support

/// Serves a registry's exposition to Prometheus on an IPv4 loopback address, through the one
/// `HTTPResponder` (one serving thread: scrapes are rare and small): `GET /metrics` gets 200
/// with the exposition, another path 404, another method 405, a malformed request 400.
public final class MetricsServer: Sendable {
    /// The address it listens on, e.g. `127.0.0.1`.
    public let address: String
    /// The port it listens on (the one the kernel picked when asked for port 0).
    public var port: Int { responder.port }
    private let responder: HTTPResponder

    /// Starts serving `registry` on `address` (in 127.0.0.0/8) and `port` (0: an ephemeral one).
    /// Throws `.invalidInput` for another address or an out-of-range port, `.io` when the socket
    /// cannot be set up (the port is taken, ...).
    public init(registry: MetricsRegistry, address: String = "127.0.0.1", port: Int = 0) throws {
        let listener: Int32
        do {
            listener = try HTTPResponder.listeningSocket(address: address, port: port)
        } catch let error as SentinelError where error.code == .invalidInput {
            throw SentinelError(.invalidInput, "metrics address \(error.message)")
        }
        self.address = address
        responder = try HTTPResponder(listening: listener, threads: 1) { request in
            Self.response(to: request, exposition: registry.exposition)
        }
    }

    /// Stops accepting, waits for the serving thread to end (at most the two seconds a connection
    /// in progress may take), and closes the listening socket. Safe to call more than once.
    public func stop() { responder.stop() }

    /// The answer to `request`; `exposition` runs only for a scrape.
    static func response(to request: ResponderRequest?, exposition: () -> String) -> ResponderResponse {
        guard let request else { return ResponderResponse(400, "Bad Request", body: "bad request\n") }
        guard request.method == "GET" else {
            return ResponderResponse(405, "Method Not Allowed", body: "only GET\n", headers: ["Allow: GET"])
        }
        guard request.path == "/metrics" else { return ResponderResponse(404, "Not Found", body: "not found; try /metrics\n") }
        return ResponderResponse(200, "OK", body: exposition(), contentType: "text/plain; version=0.0.4")
    }
}
