#if canImport(Glibc)
    import Glibc
#endif
import Support

/// Runs a parse on a thread with a large stack.
///
/// The parser recurses a dozen frames per nesting level (capped at
/// ``JavaScriptParser/maximumNestingDepth``); debug builds and Swift concurrency's small worker stacks
/// would not hold that. A dedicated thread costs microseconds per file.
enum JSLargeStack {
    /// Stack reserved for one parse; untouched pages cost nothing.
    static let stackSize = 64 << 20

    private final class Outcome<T>: @unchecked Sendable {
        // Written by the worker before it ends, read by the caller after `pthread_join`.
        var result: Result<T, any Error>?
    }

    /// Runs `body` on a fresh thread with a `stackSize` stack, waits for it and rethrows its error;
    /// runs it in place when no thread can be started.
    static func run<T>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        let outcome = Outcome<T>()
        guard let thread = PosixThread.spawn(joinable: true, stackSize: stackSize, { outcome.result = Result { try body() } })
        else { return try body() }
        pthread_join(thread, nil)
        guard let result = outcome.result else { return try body() }
        return try result.get()
    }
}
