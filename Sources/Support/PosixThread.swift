#if canImport(Glibc)
    import Glibc
#endif

/// Starts POSIX threads for work that blocks in the kernel (`poll`, `sigwaitinfo`): such work
/// needs a thread of its own rather than a slot in a cooperative pool that blocking would starve.
public enum PosixThread {
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Runs `body` on a new thread with a stack of `stackSize` bytes; nil when the thread could
    /// not be made. A `joinable` thread must be joined (`pthread_join`); any other detaches.
    /// The new thread starts with the caller's signal mask.
    public static func spawn(
        joinable: Bool = false, stackSize: Int = 1 << 20, _ body: @escaping @Sendable () -> Void
    ) -> pthread_t? {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(
            &attributes, Int32(joinable ? PTHREAD_CREATE_JOINABLE : PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, stackSize)
        var thread = pthread_t()
        let rc = pthread_create(
            &thread, &attributes,
            { raw in
                guard let raw else { return nil }
                Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
                return nil
            }, box)
        guard rc == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            return nil
        }
        return thread
    }
}
