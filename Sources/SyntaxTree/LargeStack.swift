import Foundation
import Support

/// Runs parser and lowering work on a thread with a large stack.
///
/// Every language's parser and lowering recurse once per nesting level (each capped by its own
/// bound), and each level is a dozen frames; debug builds and small worker-thread stacks (Swift
/// concurrency's cooperative pool) would not hold that. A dedicated thread costs microseconds per file.
public enum LargeStack {
    /// Stack reserved for one parse; untouched pages cost nothing.
    public static let stackSize = 64 << 20

    private final class Outcome<T>: @unchecked Sendable {
        // Written by the worker before `signal`, read by the caller after `wait`: ordered by the semaphore.
        var result: Result<T, any Error>?
    }

    /// Marks the threads `run` starts, so that work already on one runs in place.
    private static let marker = "sentinel.LargeStack"

    /// Runs `body` on a fresh thread with a `stackSize` stack and waits for it; rethrows its error.
    /// On such a thread already (loading rules parses thousands of patterns), `body` runs in place:
    /// a thread per pattern costs more than the parse.
    public static func run<T>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        if Thread.current.threadDictionary[marker] != nil { return try body() }
        let outcome = Outcome<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            Thread.current.threadDictionary[marker] = true
            outcome.result = Result { try body() }
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        done.wait()
        guard let result = outcome.result else {
            throw SentinelError(.largeStackNoResult, "parser thread produced no result")
        }
        return try result.get()
    }

    /// Runs `body(i)` for every `i` in `0..<iterations` on one large-stack thread per processor
    /// (``ParallelFor`` with this stack: Dispatch's worker stacks are small), and waits. Each
    /// iteration then parses and analyses in place instead of starting a thread of its own.
    /// `workers`: how many threads (nil: one per processor).
    public static func concurrentPerform(
        iterations: Int, workers: Int? = nil, _ body: @Sendable (Int) -> Void
    ) {
        let threads = workers ?? ProcessInfo.processInfo.activeProcessorCount
        ParallelFor.run(iterations, threads: threads, stackSize: stackSize) { i in
            // Marks the thread (setting it again costs nothing next to a parse) so `run` stays in place.
            Thread.current.threadDictionary[marker] = true
            body(i)
        }
    }
}

extension SentinelError.Code {
    /// A large-stack thread ended without a result (the thread could not run its work).
    public static let largeStackNoResult = SentinelError.Code("large-stack-no-result")
}
