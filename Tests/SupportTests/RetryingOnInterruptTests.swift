import Testing

@testable import Support

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct RetryingOnInterruptTests {
    /// A call that fails with each errno of `failures` in turn, then returns `value`.
    final class Script {
        var failures: [Int32]
        let value: Int
        var calls = 0

        init(failures: [Int32], value: Int) {
            self.failures = failures
            self.value = value
        }

        func call() -> Int {
            calls += 1
            guard !failures.isEmpty else { return value }
            errno = failures.removeFirst()
            return -1
        }
    }

    @Test(
        "EINTR is retried until the call succeeds or fails otherwise",
        arguments: [
            ([], 7, Result<Int, Errno>.success(7), 1),
            ([EINTR], 0, .success(0), 2),
            ([EINTR, EINTR, EINTR], 42, .success(42), 4),
            ([EAGAIN], 1, .failure(Errno(rawValue: EAGAIN)), 1),
            ([EINTR, EBADF, EINTR], 1, .failure(Errno(rawValue: EBADF)), 2),
        ])
    func retries(failures: [Int32], value: Int, expected: Result<Int, Errno>, calls: Int) {
        let script = Script(failures: failures, value: value)
        #expect(retryingOnInterrupt(script.call) == expected)
        #expect(script.calls == calls)
    }

    @Test("a real call returns its value, or its errno")
    func realCall() throws {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { for fd in fds { close(fd) } }
        var byte: UInt8 = 9
        #expect(retryingOnInterrupt { write(fds[1], &byte, 1) } == .success(1))
        #expect(retryingOnInterrupt { read(fds[0], &byte, 1) } == .success(1))
        #expect(byte == 9)
        #expect(retryingOnInterrupt { read(-1, &byte, 1) } == .failure(Errno(rawValue: EBADF)))
        #expect(throws: Errno(rawValue: EBADF)) { try retryingOnInterrupt { close(-1) }.get() }
    }
}
