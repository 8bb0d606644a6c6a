#if canImport(Glibc)
    import Glibc
#endif
import CCurl
import Foundation
import Support

/// State the libcurl callbacks reach through their context pointer: where the body goes, how
/// much of it has arrived, and the response headers.
final class HTTPTransfer {
    /// Where the body goes.
    enum Sink {
        /// Written to this descriptor as it arrives.
        case file(Int32)
        /// Kept in `data`.
        case memory
    }

    let sink: Sink
    let maxBytes: Int64
    var written: Int64 = 0
    var data: [UInt8] = []
    var headers: [HTTPHeader] = []
    /// Why a callback stopped the transfer (curl then reports a generic write error).
    var failure: String?
    /// Keep the first `maxBytes` of a larger in-memory body and stop, rather than fail.
    let truncate: Bool
    /// Set when the body was cut at `maxBytes`.
    var truncated = false

    init(sink: Sink, maxBytes: Int64, truncate: Bool = false) {
        self.sink = sink
        self.maxBytes = maxBytes
        self.truncate = truncate
    }

    static let body: sentinel_curl_data_callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let transfer = Unmanaged<HTTPTransfer>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        let chunk = UnsafeRawBufferPointer(start: data, count: length)
        // A server without Content-Length is caught here, as it streams past the cap.
        guard transfer.written + Int64(length) <= transfer.maxBytes else {
            if transfer.truncate, case .memory = transfer.sink {
                let room = Int(max(0, transfer.maxBytes - transfer.written))
                transfer.data.append(contentsOf: chunk.prefix(room))
                transfer.written += Int64(room)
                transfer.truncated = true
            } else {
                transfer.failure = "response larger than \(transfer.maxBytes) bytes"
            }
            return 0
        }
        switch transfer.sink {
        case .file(let fd):
            if let error = writeAll(fd, chunk) {
                transfer.failure = "cannot write the body: \(error)"
                return 0
            }
        case .memory:
            transfer.data.append(contentsOf: chunk)
        }
        transfer.written += Int64(length)
        return length
    }

    static let header: sentinel_curl_data_callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let transfer = Unmanaged<HTTPTransfer>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            transfer.headers = []  // a new response (after a redirect or a 100 Continue)
        } else if let colon = line.firstIndex(of: ":") {
            transfer.headers.append(
                HTTPHeader(
                    name: String(line[..<colon]),
                    value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return length
    }
}
