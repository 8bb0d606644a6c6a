import DAST
import Synchronization

/// Sends through libcurl and records every request: the tests prove what was (never) sent.
final class RecordingTransport: WebTransport {
    private let inner: CurlTransport
    private let sent = Mutex<[WebRequest]>([])

    init(timeout: Double = 10, maxBodyBytes: Int64 = 2 << 20) {
        inner = CurlTransport(timeout: timeout, connectTimeout: 5, maxBodyBytes: maxBodyBytes)
    }

    func send(_ request: WebRequest) throws -> WebResponse {
        sent.withLock { $0.append(request) }
        return try inner.send(request)
    }

    var requests: [WebRequest] { sent.withLock { $0 } }
}
