#if canImport(Glibc)
    import Glibc
#endif

/// `splice(2)` (looked up at run time, see `GNUCalls`) and the pipes it moves bytes through.
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
    static let function: Function? = GNUCalls.lookup("splice", as: Function.self)

    /// A non-blocking, close-on-exec pipe enlarged to `size` bytes where the system allows;
    /// returns (read end, write end, capacity) or `nil`.
    static func pipe(size: Int) -> (read: Int32, write: Int32, capacity: Int)? {
        guard let (read, write) = GNUCalls.pipe() else { return nil }
        _ = fcntl(write, setPipeSize, Int32(size))
        let capacity = Int(fcntl(write, getPipeSize))
        return (read, write, capacity > 0 ? capacity : 65536)
    }
}
