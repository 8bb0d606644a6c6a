#if canImport(Glibc)
    import Glibc
#endif
import Dispatch
import Synchronization

/// The one way the code runs a loop in parallel (docs/HACKING.md, "One way per job"): every
/// parallel for and parallel map goes through here, so how work is spread over threads is decided
/// in one place (the architecture check allows `DispatchQueue.concurrentPerform` nowhere else).
public enum ParallelFor {
    /// Stack of a thread `run` starts when the caller names none: glibc's default for a new thread.
    public static let defaultStackSize = 8 << 20

    /// Runs `body(i)` for every `i` in `0..<count` and returns when all have run; the iterations
    /// start in no particular order, so a caller that keeps results keeps them by index.
    ///
    /// Without `threads`, on Dispatch's pool (one worker per processor): for work that computes.
    /// With `threads`, on that many threads of its own (at most `count`) with `stackSize`-byte
    /// stacks: for work that blocks (requests in flight) or recurses deeply (the Python parser,
    /// ``PythonSyntax/LargeStack``), which the pool's small stacks would not hold.
    public static func run(_ count: Int, threads: Int? = nil, stackSize: Int? = nil, _ body: @Sendable (Int) -> Void) {
        guard count > 0 else { return }
        guard let threads else {
            DispatchQueue.concurrentPerform(iterations: count, execute: body)
            return
        }
        let workers = max(1, min(threads, count))
        let next = Atomic<Int>(0)
        // Every thread is joined before this returns, so `body` does not outlive the call.
        withoutActuallyEscaping(body) { body in
            var started: [pthread_t] = []
            for _ in 0..<workers {
                let thread = PosixThread.spawn(joinable: true, stackSize: stackSize ?? defaultStackSize) {
                    while true {
                        let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                        guard index < count else { break }
                        body(index)
                    }
                }
                if let thread { started.append(thread) }
            }
            for thread in started { pthread_join(thread, nil) }
            // No thread could be made (out of threads): what is left runs here rather than never.
            if started.isEmpty {
                while true {
                    let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard index < count else { break }
                    body(index)
                }
            }
        }
    }

    /// `items.map(transform)`, the transforms run in parallel as ``run(_:threads:stackSize:_:)``
    /// runs them; the results in the order of `items`.
    public static func map<T: Sendable, R: Sendable>(
        _ items: [T], threads: Int? = nil, stackSize: Int? = nil, _ transform: @Sendable (T) -> R
    ) -> [R] {
        if items.count == 1 { return [transform(items[0])] }
        let slots = Mutex<[R?]>(Array(repeating: nil, count: items.count))
        run(items.count, threads: threads, stackSize: stackSize) { index in
            let result = transform(items[index])
            slots.withLock { $0[index] = result }
        }
        return slots.withLock { $0 }.map { $0! }
    }
}
