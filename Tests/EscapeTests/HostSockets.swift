import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Sockets the tests open on the host, so the probe has something real to reach for.
/// Each owns one descriptor; `close()` must be called (tests use `defer`).
struct HostSocket: Sendable {
    let fd: Int32
    /// The bound port for TCP/UDP, 0 for Unix sockets.
    let port: UInt16

    /// A TCP listener on 127.0.0.1 with a kernel-chosen port.
    static func tcpListener() throws -> HostSocket {
        try loopback(type: Int32(SOCK_STREAM.rawValue), listen: true)
    }

    /// A UDP socket bound on 127.0.0.1 with a kernel-chosen port.
    static func udpReceiver() throws -> HostSocket {
        try loopback(type: Int32(SOCK_DGRAM.rawValue), listen: false)
    }

    /// A listening Unix socket in the abstract namespace (`@name`), which is per network namespace.
    static func abstractListener(name: String) throws -> HostSocket {
        try unixListener(pathBytes: [0] + Array(name.utf8))
    }

    /// A listening Unix socket at a filesystem path.
    static func unixListener(path: String) throws -> HostSocket {
        try unixListener(pathBytes: Array(path.utf8))
    }

    /// True when a connection is waiting or a datagram arrived within `seconds`.
    func receivedSomething(within seconds: Double) -> Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&pfd, 1, Int32(seconds * 1000)) > 0
    }

    func close() { _ = Glibc.close(fd) }

    private static func loopback(type: Int32, listen shouldListen: Bool) throws -> HostSocket {
        let fd = socket(AF_INET, type | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw RunnerError("socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, !shouldListen || listen(fd, 16) == 0 else {
            let err = errno
            _ = Glibc.close(fd)
            throw RunnerError("bind/listen 127.0.0.1: errno \(err)")
        }
        var actual = sockaddr_in()
        var actualLength = length
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &actualLength) }
        }
        return HostSocket(fd: fd, port: UInt16(bigEndian: actual.sin_port))
    }

    private static func unixListener(pathBytes: [UInt8]) throws -> HostSocket {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw RunnerError("socket(AF_UNIX): errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else {
            _ = Glibc.close(fd)
            throw RunnerError("unix socket name too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in pathBytes.enumerated() { raw[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            let err = errno
            _ = Glibc.close(fd)
            throw RunnerError("bind/listen unix socket: errno \(err)")
        }
        return HostSocket(fd: fd, port: 0)
    }
}
