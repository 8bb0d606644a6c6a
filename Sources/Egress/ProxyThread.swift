#if canImport(Glibc)
    import Glibc
#endif

/// Starts detached POSIX threads: connections block in `poll`, so each gets a real
/// thread rather than a slot in a cooperative pool that blocking would starve.
enum ProxyThread {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Runs `body` on a new detached thread; false when the thread could not be created.
    static func spawn(_ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, 1 << 20)
        var thread = pthread_t()
        let rc = pthread_create(
            &thread, &attributes,
            { raw in
                guard let raw else { return nil }
                // A write into a socket whose peer left raises SIGPIPE, which would kill the whole
                // process: `send` passes MSG_NOSIGNAL, and proxy threads block it besides (the
                // sandboxed child's dispositions stay untouched; a blocked thread-directed SIGPIPE
                // just stays pending).
                var set = sigset_t()
                sigemptyset(&set)
                sigaddset(&set, SIGPIPE)
                pthread_sigmask(SIG_BLOCK, &set, nil)
                Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
                return nil
            }, box)
        if rc != 0 {
            Unmanaged<Box>.fromOpaque(box).release()
            return false
        }
        return true
    }
}
