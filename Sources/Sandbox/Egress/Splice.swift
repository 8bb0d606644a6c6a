#if canImport(Glibc)
    import Glibc
#endif

/// `splice(2)`, looked up at run time: it is `_GNU_SOURCE`-only and does not import into
/// Swift, and this module may not add a C target for one declaration.
enum Splice {
    typealias Function =
        @convention(c) (
            Int32, UnsafeMutablePointer<Int64>?, Int32, UnsafeMutablePointer<Int64>?, Int, UInt32
        ) -> Int

    static let move: UInt32 = 1
    static let nonBlocking: UInt32 = 2
    /// `F_SETPIPE_SZ` / `F_GETPIPE_SZ` (Linux-specific fcntl commands).
    static let setPipeSize: Int32 = 1031
    static let getPipeSize: Int32 = 1032

    /// The C function, or `nil` when the C library does not export it.
    static let function: Function? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "splice") else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
    }()

    /// A non-blocking, close-on-exec pipe enlarged to `size` bytes where the system allows;
    /// returns (read end, write end, capacity) or `nil`.
    static func pipe(size: Int) -> (read: Int32, write: Int32, capacity: Int)? {
        var fds: [Int32] = [-1, -1]
        guard Glibc.pipe(&fds) == 0 else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            SocketIO.setNonBlocking(fd)
        }
        _ = fcntl(fds[1], setPipeSize, Int32(size))
        let capacity = Int(fcntl(fds[1], getPipeSize))
        return (fds[0], fds[1], capacity > 0 ? capacity : 65536)
    }
}
