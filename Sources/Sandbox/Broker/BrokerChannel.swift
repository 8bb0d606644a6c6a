#if canImport(Glibc)
    import Glibc
#endif
import CSystem
import FoundationEssentials
import Support

/// One connection between the analysis sandbox and its root launcher, carrying frames: a JSON
/// header (at most `maxHeader` bytes), a body of raw bytes (bounded by the receiver), and at most
/// one descriptor riding with the frame's first bytes. On the wire: the header's length and the
/// body's length (8 bytes each, little-endian), the header, the body. Either side treats the other as
/// hostile: every length is checked before anything is allocated, and a frame that breaks a
/// bound ends the connection with an error rather than a partial read.
final class BrokerChannel: @unchecked Sendable {
    /// The connected socket; closed with the channel.
    let fd: Int32
    /// The most header bytes either side sends or accepts.
    static let maxHeader = 1 << 20

    init(fd: Int32) { self.fd = fd }
    deinit { close(fd) }

    /// Sends one frame; `descriptor` (when given) rides with it and stays open here.
    func send<Header: Encodable>(_ header: Header, body: Data = Data(), descriptor: Int32? = nil) throws {
        let encoded = try JSONEncoder().encode(header)
        guard encoded.count <= Self.maxHeader else { throw Self.failure("a header of \(encoded.count) bytes") }
        let prefix = LittleEndian.bytes(UInt64(encoded.count)) + LittleEndian.bytes(UInt64(body.count))
        let sent = prefix.withUnsafeBytes { bytes in
            retryingOnInterrupt { csys_send_with_fd(fd, bytes.baseAddress, bytes.count, descriptor ?? -1) }
        }
        switch sent {
        case .failure(let error): throw Self.failure("cannot send: \(error)", errno: error)
        case .success(let count):
            try sendAll(prefix[count...])
        }
        try sendAll(encoded)
        try sendAll(body)
    }

    /// Receives one frame whose body is at most `maxBody` bytes; nil at a clean end of the
    /// connection before any byte of a frame.
    func receive<Header: Decodable>(
        _ type: Header.Type, maxBody: Int
    ) throws -> (header: Header, body: Data, descriptor: Int32?)? {
        try receive(type, maxBody: { _ in maxBody })
    }

    /// Receives one frame; its body may be at most `maxBody(header)` bytes, decided once the
    /// header is read (before the body is), and `beforeBody` runs between the two (a caller
    /// waits there for its turn to hold a large body). The body is read as it arrives, in
    /// pieces: a peer that claims more than it sends makes the receiver hold only what came.
    func receive<Header: Decodable>(
        _ type: Header.Type, maxBody: (Header) -> Int, beforeBody: (Header) throws -> Void = { _ in }
    ) throws -> (header: Header, body: Data, descriptor: Int32?)? {
        var prefix = [UInt8](repeating: 0, count: 16)
        var descriptor: Int32 = -1
        let first = prefix.withUnsafeMutableBytes { bytes in
            retryingOnInterrupt { csys_recv_with_fd(fd, bytes.baseAddress, bytes.count, &descriptor) }
        }
        let got: Int
        switch first {
        case .failure(let error): throw Self.failure("cannot receive: \(error)", errno: error)
        case .success(let count): got = count
        }
        var held: Int32? = descriptor >= 0 ? descriptor : nil
        do {
            if got == 0 { return nil }
            try receiveAll(into: &prefix, from: got)
            let headerLength = LittleEndian.value(prefix[0..<8])
            let bodyLength = LittleEndian.value(prefix[8..<16])
            guard headerLength <= UInt64(Self.maxHeader) else { throw Self.failure("a header of \(headerLength) bytes") }
            var header = [UInt8](repeating: 0, count: Int(headerLength))
            try receiveAll(into: &header, from: 0)
            let decoded: Header
            do {
                decoded = try JSONDecoder().decode(Header.self, from: Data(header))
            } catch {
                throw Self.failure("a header that is not the expected JSON")
            }
            let bound = maxBody(decoded)
            guard bodyLength <= UInt64(max(0, bound)) else { throw Self.failure("a body of \(bodyLength) bytes (at most \(bound))") }
            try beforeBody(decoded)
            let body = try receiveBody(count: Int(bodyLength))
            defer { held = nil }
            return (decoded, body, held)
        } catch {
            if let held { close(held) }
            throw error
        }
    }

    /// `count` bytes, read in pieces of at most 1 MiB as they come.
    private func receiveBody(count: Int) throws -> Data {
        var body = Data()
        var piece = [UInt8](repeating: 0, count: min(count, 1 << 20))
        while body.count < count {
            let wanted = min(piece.count, count - body.count)
            let result = piece.withUnsafeMutableBytes { raw in
                retryingOnInterrupt { recv(fd, raw.baseAddress!, wanted, 0) }
            }
            switch result {
            case .success(0): throw Self.failure("the other side closed the connection inside a frame")
            case .success(let n): body.append(contentsOf: piece[0..<n])
            case .failure(let error): throw Self.failure("cannot receive: \(error)", errno: error)
            }
        }
        return body
    }

    /// Gives up on a peer that sends or takes nothing for `seconds` (each read or write then
    /// fails with EAGAIN).
    func setTimeouts(seconds: Int) {
        var value = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    private func sendAll<Bytes: ContiguousBytesCollection>(_ bytes: Bytes) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                switch retryingOnInterrupt({ Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL)) }) {
                case .success(let count): offset += count
                case .failure(let error): throw Self.failure("cannot send: \(error)", errno: error)
                }
            }
        }
    }

    private func receiveAll(into buffer: inout [UInt8], from start: Int) throws {
        var offset = start
        while offset < buffer.count {
            let result = buffer.withUnsafeMutableBytes { raw in
                retryingOnInterrupt { recv(fd, raw.baseAddress! + offset, raw.count - offset, 0) }
            }
            switch result {
            case .success(0): throw Self.failure("the other side closed the connection inside a frame")
            case .success(let count): offset += count
            case .failure(let error): throw Self.failure("cannot receive: \(error)", errno: error)
            }
        }
    }

    static func failure(_ detail: String, errno: Errno? = nil) -> SentinelError {
        SentinelError(.sandboxSetup, "launch broker: \(detail)", errno: errno)
    }
}

/// Byte collections `BrokerChannel` sends without copying.
protocol ContiguousBytesCollection {
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R
}
extension Data: ContiguousBytesCollection {}
extension Array: ContiguousBytesCollection where Element == UInt8 {}
extension ArraySlice: ContiguousBytesCollection where Element == UInt8 {}
