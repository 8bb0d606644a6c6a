#if canImport(Glibc)
    import Glibc
#endif
import DAST
import Web

/// The address a target can reach the canary at: loopback for a loopback target, else the
/// address this host uses towards the target (found by connecting a UDP socket, which sends
/// nothing).
public enum CanaryHost {
    /// The address of this host `target` reaches it at (127.0.0.1 when nothing better is found).
    public static func address(reaching target: WebURL) -> String {
        let host = target.host
        if host == "localhost" || host.hasPrefix("127.") || host == "[::1]" { return "127.0.0.1" }
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(target.port), &hints, &list) == 0, let first = list else { return "127.0.0.1" }
        defer { freeaddrinfo(list) }
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return "127.0.0.1" }
        defer { close(fd) }
        guard connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else { return "127.0.0.1" }
        return localAddress(of: fd) ?? "127.0.0.1"
    }

    /// The IPv4 address the socket `fd` is bound to, as text.
    static func localAddress(of fd: Int32) -> String? {
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        var address = local.sin_addr
        guard inet_ntop(AF_INET, &address, &buffer, socklen_t(INET_ADDRSTRLEN)) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
