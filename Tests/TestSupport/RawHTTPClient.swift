import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A raw HTTP/1.x client over a loopback TCP socket, for servers whose bytes on the wire are the
/// behaviour under test (slow clients, malformed requests, what is sent before a close).
public enum RawHTTPClient {
    /// A socket connected to 127.0.0.1:`port`, with ten-second timeouts so a hung server fails the test.
    public static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            let error = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            close(fd)
            throw error
        }
        return fd
    }

    /// Sends `request`, reads the whole response (the server closes), returns it as text.
    public static func exchange(port: Int, _ request: String) throws -> String {
        try exchange(port: port, bytes: Array(request.utf8), closeWriting: false)
    }

    /// Sends `bytes` (then ends the request stream when `closeWriting`), reads the whole response.
    public static func exchange(port: Int, bytes: [UInt8], closeWriting: Bool) throws -> String {
        let fd = try connect(port: port)
        defer { close(fd) }
        send(fd, bytes)
        if closeWriting { shutdown(fd, Int32(SHUT_WR)) }
        return String(decoding: readToEnd(fd), as: UTF8.self)
    }

    /// Sends all of `bytes` (or what the peer takes before it closes).
    public static func send(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return }
            offset += sent
        }
    }

    /// Everything until end of input, an error or the receive timeout.
    public static func readToEnd(_ fd: Int32) -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return result }
            result += chunk[0..<count]
        }
    }

    /// The response's head lines (status line first) and its body.
    public static func split(_ response: String) -> (head: [String], body: String) {
        guard let end = response.range(of: "\r\n\r\n") else { return ([], "") }
        let head = response[..<end.lowerBound].components(separatedBy: "\r\n")
        return (head, String(response[end.upperBound...]))
    }
}
