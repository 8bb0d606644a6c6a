#if canImport(Glibc)
    import Glibc
#endif
import Support
import Synchronization
import Testing

/// The one large-stack runner every parser and lowering shares: deep work fits, work already on
/// such a thread runs in place (rule loading parses about a thousand patterns; a thread each cost
/// more than the parses), and errors come back to the caller.
@Suite struct LargeStackTests {
    static func depth(_ n: Int) -> Int { n == 0 ? 0 : 1 + depth(n - 1) }

    struct Refused: Error {}

    @Test("work deeper than a small thread's stack holds runs on the large stack")
    func deepWorkFits() throws {
        #expect(try LargeStack.run { Self.depth(200_000) } == 200_000)
    }

    @Test("a run inside a run, or inside concurrentPerform, stays on the same thread")
    func nestedRunsInPlace() throws {
        #expect(!LargeStack.onLargeStack)
        let threads = try LargeStack.run { () -> (UInt, UInt, Bool) in
            let outer = UInt(bitPattern: Int(bitPattern: pthread_self()))
            let inner = try LargeStack.run { UInt(bitPattern: Int(bitPattern: pthread_self())) }
            return (outer, inner, LargeStack.onLargeStack)
        }
        #expect(threads.0 == threads.1)
        #expect(threads.2)
        let moved = Mutex(0)
        LargeStack.concurrentPerform(iterations: 16, workers: 2) { _ in
            let outer = pthread_self()
            let inner = try? LargeStack.run { pthread_self() }
            if inner.map({ pthread_equal($0, outer) == 0 }) ?? true { moved.withLock { $0 += 1 } }
        }
        #expect(moved.withLock { $0 } == 0)
        #expect(!LargeStack.onLargeStack)
    }

    @Test("an error thrown on the large stack reaches the caller")
    func errorsReturn() {
        #expect(throws: Refused.self) { try LargeStack.run { throw Refused() } }
    }
}
