/// What one socket, and one listening socket, can hold outside the sandbox's memory limit.
///
/// Linux charges socket buffers to the memory cgroup (v1: the TCP limit `CgroupV1` sets), but
/// lets every socket take one packet past it so that a connection always progresses, and
/// charges a connection that nobody has accepted yet to no cgroup at all. Both multiply with
/// the number of sockets, which only processes x open files bounds. These settings of the
/// sandbox's own network namespace make each term small (measured in README "Limits"):
///
/// - the loopback's packets are 1500 bytes (MTU and `gso_max_size`): a forced packet is one
///   page instead of 64 KiB;
/// - `tcp_wmem`'s first value (what a socket with nothing queued may still send) is 1 KiB;
/// - `somaxconn` cuts every listen backlog to 16, so a listener keeps at most 17 connections
///   unaccepted instead of 4097; each holds at most `tcp_rmem[1]`, because the default seccomp
///   policy makes `setsockopt(SO_RCVBUF)` succeed without effect (seccomp_deny.c).
///
/// `net.core.rmem_max` and `wmem_max` are per namespace on 6.18 but read-only outside the
/// host's (they follow the host's values), and `tcp_mem` and `tcp_max_orphans` are host-wide.
/// What is left is proportional to the number of sockets, bounded only by processes x open files.
public enum NetworkNamespaceLimits {
    /// The loopback's MTU and largest TCP packet (IPv6 needs at least 1280).
    public static let loopbackMTU: UInt32 = 1500
    /// `net.core.somaxconn`: Linux's default was 128 until 5.4, Python's servers ask for 5; a
    /// burst of more connections than a listener keeps waits for the client's SYN retry (1 s).
    public static let listenBacklog = 16
    /// The first value of `net.ipv4.tcp_wmem`, bytes.
    public static let sendReserve = 1024

    /// The settings, each no looser than the launcher's own namespace has (`host` reads a file
    /// under /proc/sys by name; a file it cannot read is left out).
    public static func make(host: (String) -> String? = NamespaceSysctl.hostText) -> [NamespaceSysctl] {
        var result: [NamespaceSysctl] = []
        if let current = host("net/core/somaxconn").flatMap({ Int($0) }) {
            result.append(NamespaceSysctl(name: "net/core/somaxconn", value: String(min(current, listenBacklog))))
        }
        let wmem = host("net/ipv4/tcp_wmem")?.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Int($0) }
        if let wmem, wmem.count == 3 {
            // Interpolated: a launch's first generic `joined` costs more than all the rest here.
            let value = "\(min(wmem[0], sendReserve)) \(wmem[1]) \(wmem[2])"
            result.append(NamespaceSysctl(name: "net/ipv4/tcp_wmem", value: value))
        }
        return result
    }
}
