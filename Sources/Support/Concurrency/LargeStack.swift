#if canImport(Glibc)
    import Glibc
#endif

/// Runs parser and lowering work on a thread with a large stack: the one such mechanism, shared
/// by every language's parser and lowering.
///
/// Parsers and lowerings recurse once per nesting level (each capped by its own bound), and each
/// level is a dozen frames; debug builds and small worker-thread stacks (Dispatch's pool, Swift
/// concurrency's cooperative pool) would not hold that. Work already on such a thread runs in
/// place: loading the rules parses about a thousand patterns, and a thread per pattern (a 64 MiB
/// mapping, a clone, a join) cost more than the parses themselves (issue 77: 800 threads, half of
/// a small scan's CPU in the kernel).
public enum LargeStack {
    /// Stack reserved for one parse; untouched pages cost nothing.
    public static let stackSize = 64 << 20

    private final class Outcome<T>: @unchecked Sendable {
        // Written by the worker before it ends, read by the caller after `pthread_join`.
        var result: Result<T, any Error>?
    }

    /// The key whose value is non-nil on a thread with a `stackSize` stack.
    private static let marker: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left")
        return key
    }()

    /// True on a thread `run` or `concurrentPerform` started.
    public static var onLargeStack: Bool { pthread_getspecific(marker) != nil }

    private static func markCurrentThread() {
        // Any non-nil pointer will do: only its presence is read.
        _ = pthread_setspecific(marker, UnsafeRawPointer(bitPattern: 1))
    }

    /// Runs `body` on a fresh thread with a `stackSize` stack, waits for it and rethrows its error.
    /// On such a thread already, `body` runs in place; when no thread can be started, it runs in
    /// place too (a deep input may then exhaust the smaller stack, as without this runner).
    public static func run<T>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        if onLargeStack { return try body() }
        let outcome = Outcome<T>()
        let started = PosixThread.spawn(joinable: true, stackSize: stackSize) {
            markCurrentThread()
            outcome.result = Result { try body() }
        }
        guard let thread = started else { return try body() }
        pthread_join(thread, nil)
        guard let result = outcome.result else { return try body() }
        return try result.get()
    }

    /// Runs `body(i)` for every `i` in `0..<iterations` on one large-stack thread per processor
    /// (``ParallelFor`` with this stack), and waits. Each iteration then parses and analyses in
    /// place instead of starting a thread of its own. `workers`: how many threads (nil: one per
    /// processor).
    public static func concurrentPerform(
        iterations: Int, workers: Int? = nil, _ body: @Sendable (Int) -> Void
    ) {
        // sysconf, not Foundation's ProcessInfo: Support is linked into the lean launcher, which
        // loads no Foundation (LeanLauncherCLITests).
        let threads = workers ?? sysconf(Int32(_SC_NPROCESSORS_ONLN))
        ParallelFor.run(iterations, threads: max(1, threads), stackSize: stackSize) { i in
            if !onLargeStack { markCurrentThread() }
            body(i)
        }
    }
}
