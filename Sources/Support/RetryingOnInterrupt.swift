#if canImport(Glibc)
    import Glibc
#endif

/// Makes one system call, again for as long as it fails with EINTR: the one place in Swift
/// that retries an interrupted call (after swift-system's `valueOrErrno(retryOnInterrupt:)`).
///
/// `call` makes the call and returns its result, -1 with `errno` set on failure. The result
/// is the call's value, or the `Errno` of a failure other than EINTR (`.get()` throws it).
/// `call` runs again as written, so a timeout computed inside it is recomputed on a retry.
///
/// ```swift
/// switch retryingOnInterrupt({ recv(fd, buffer, count, 0) }) {
/// case .success(let count): ...
/// case .failure(let error) where error.rawValue == EAGAIN: ...
/// case .failure(let error): ...
/// }
/// ```
@inlinable
public func retryingOnInterrupt<Value: SignedInteger & FixedWidthInteger>(_ call: () -> Value) -> Result<Value, Errno> {
    while true {
        let value = call()
        guard value == -1 else { return .success(value) }
        let error = Errno.current
        guard error.rawValue == EINTR else { return .failure(error) }
    }
}
