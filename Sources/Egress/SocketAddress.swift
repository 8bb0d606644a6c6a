#if canImport(Glibc)
    import Glibc
#endif

/// An IP address and port in `sockaddr_in`/`sockaddr_in6` form, for connect and getsockname.
struct SocketAddress: Sendable {
    let address: IPAddress
    let port: UInt16

    init(address: IPAddress, port: UInt16) {
        self.address = address
        self.port = port
    }

    /// Reads a `sockaddr` of family AF_INET or AF_INET6; `nil` for any other family.
    init?(_ pointer: UnsafePointer<sockaddr>?) {
        guard let pointer else { return nil }
        switch Int32(pointer.pointee.sa_family) {
        case AF_INET:
            let value = UnsafeRawPointer(pointer).loadUnaligned(as: sockaddr_in.self)
            var raw = value.sin_addr
            guard let address = IPAddress(bytes: withUnsafeBytes(of: &raw) { Array($0) }) else { return nil }
            self.init(address: address, port: UInt16(bigEndian: value.sin_port))
        case AF_INET6:
            let value = UnsafeRawPointer(pointer).loadUnaligned(as: sockaddr_in6.self)
            var raw = value.sin6_addr
            guard let address = IPAddress(bytes: withUnsafeBytes(of: &raw) { Array($0) }) else { return nil }
            self.init(address: address, port: UInt16(bigEndian: value.sin6_port))
        default:
            return nil
        }
    }

    /// The local address of a socket.
    static func local(of fd: Int32) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        guard ok else { return nil }
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress($0) }
        }
    }

    /// Calls `body` with this address as a `sockaddr` and its length.
    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        if address.isIPv4 {
            var value = sockaddr_in()
            value.sin_family = sa_family_t(AF_INET)
            value.sin_port = port.bigEndian
            withUnsafeMutableBytes(of: &value.sin_addr) { $0.copyBytes(from: address.bytes) }
            return withUnsafePointer(to: &value) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        var value = sockaddr_in6()
        value.sin6_family = sa_family_t(AF_INET6)
        value.sin6_port = port.bigEndian
        withUnsafeMutableBytes(of: &value.sin6_addr) { $0.copyBytes(from: address.bytes) }
        return withUnsafePointer(to: &value) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
    }
}
