#if canImport(Glibc)
    import Glibc
#endif

/// `_GNU_SOURCE`-only calls (`accept4`, `pipe2`, `splice`) that do not import into Swift,
/// looked up at run time. They set close-on-exec atomically: a launcher forking on another
/// thread between `accept` and `fcntl` would otherwise leak a connection into a child.
enum GNUCalls {
    typealias Accept4 =
        @convention(c) (Int32, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?, Int32) -> Int32
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32

    static let accept4: Accept4? = lookup("accept4", as: Accept4.self)
    static let pipe2: Pipe2? = lookup("pipe2", as: Pipe2.self)

    /// The C library's `name` as a function of type `T`, or `nil` when it is not exported.
    static func lookup<T>(_ name: String, as type: T.Type) -> T? {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }

    /// Accepts one connection as a non-blocking, close-on-exec socket; -1 with errno on failure.
    static func accept(_ listener: Int32) -> Int32 {
        if let accept4 {
            return accept4(listener, nil, nil, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
        }
        let fd = Glibc.accept(listener, nil, nil)
        if fd >= 0 {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            SocketIO.setNonBlocking(fd)
        }
        return fd
    }

    /// A non-blocking, close-on-exec pipe as (read end, write end), or `nil`.
    static func pipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [-1, -1]
        if let pipe2 {
            guard pipe2(&fds, O_NONBLOCK | O_CLOEXEC) == 0 else { return nil }
            return (fds[0], fds[1])
        }
        guard Glibc.pipe(&fds) == 0 else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            SocketIO.setNonBlocking(fd)
        }
        return (fds[0], fds[1])
    }
}
