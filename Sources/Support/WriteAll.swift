#if canImport(Glibc)
    import Glibc
#endif

/// Writes every byte to `fd`, retrying short writes and interrupted ones: the one loop every
/// caller that writes a descriptor (files, pipes, the terminal) shares. Returns the errno of a failure.
@discardableResult
public func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Errno? {
    guard let base = bytes.baseAddress else { return nil }
    var offset = 0
    while offset < bytes.count {
        switch retryingOnInterrupt({ write(fd, base + offset, bytes.count - offset) }) {
        case .success(let count): offset += count
        case .failure(let error): return error
        }
    }
    return nil
}
