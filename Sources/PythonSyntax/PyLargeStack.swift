import Foundation

/// Runs parser work on a thread with a large stack.
///
/// The parser recurses once per nesting level (capped at ``PythonParser/maximumNestingDepth``), and
/// each level is a dozen frames; debug builds and small worker-thread stacks (Swift concurrency's
/// cooperative pool) would not hold that. A dedicated thread costs microseconds per file.
public enum PyLargeStack {
    /// Stack reserved for one parse; untouched pages cost nothing.
    public static let stackSize = 64 << 20

    private final class Outcome<T>: @unchecked Sendable {
        // Written by the worker before `signal`, read by the caller after `wait`: ordered by the semaphore.
        var result: Result<T, any Error>?
    }

    /// Marks the threads `run` starts, so that work already on one runs in place.
    private static let marker = "sentinel.PyLargeStack"

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
            throw PythonSyntaxError(
                .unexpectedToken, file: "", line: 0, column: 0, message: "parser thread produced no result")
        }
        return try result.get()
    }

    /// Runs `body(i)` for every `i` in `0..<iterations` on one large-stack thread per processor
    /// (like `DispatchQueue.concurrentPerform`, whose worker stacks are small), and waits.
    /// Each iteration then parses and analyses in place instead of starting a thread of its own.
    /// `workers`: how many threads (nil: one per processor).
    public static func concurrentPerform(
        iterations: Int, workers: Int? = nil, _ body: @escaping @Sendable (Int) -> Void
    ) {
        guard iterations > 0 else { return }
        let next = Counter()
        let workers = max(1, min(iterations, workers ?? ProcessInfo.processInfo.activeProcessorCount))
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<workers {
            let thread = Thread {
                Thread.current.threadDictionary[marker] = true
                while let i = next.take(below: iterations) { body(i) }
                done.signal()
            }
            thread.stackSize = stackSize
            thread.start()
        }
        for _ in 0..<workers { done.wait() }
    }

    /// The next iteration to hand out.
    private final class Counter: @unchecked Sendable {
        private var value = 0
        private let lock = NSLock()

        func take(below limit: Int) -> Int? {
            lock.lock()
            defer { lock.unlock() }
            guard value < limit else { return nil }
            value += 1
            return value - 1
        }
    }
}
