import Support
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The egress proxy of one sandbox run. It serves an already-listening TCP socket (the
/// launcher creates it inside the sandbox's network namespace and hands it over), speaks
/// HTTP CONNECT, plain HTTP forwarding and SOCKS5 on it, and lets through only what
/// `EgressPolicy` allows, recording every decision.
///
/// One thread accepts; each connection gets its own thread. `stop()` wakes every wait
/// through a shared stop pipe, so it returns promptly even with connections open.
///
/// ```swift
/// let proxy = try EgressProxy(
///     listeningSocket: fd, policy: try EgressPolicy(allow: profileAllow + cliAllow),
///     limits: EgressLimits(maxConnections: 32, maxTotalBytes: 1 << 30),
///     onDenied: { record in printError(record.denialLine) })
/// try proxy.start()
/// // ... the sandboxed process tree runs and ends ...
/// status.egress = proxy.stop()
/// ```
public final class EgressProxy: Sendable {
    private struct State {
        var started = false
        var stopped = false
        var records: [EgressRecord] = []
        /// Threads that have not finished yet (accept thread included).
        var liveThreads = 0
        /// Connections being served normally, and ones being refused over the limit.
        var active = 0
        var refusing = 0
        /// The listener and stop pipe are closed (by `stop()` or `deinit`).
        var closed = false
    }

    /// Records kept per run; later ones are dropped (the count still shows in `droppedRecords`).
    public static let maxRecords = 100_000
    /// Connections over `maxConnections` still get an answer, up to this many at once.
    static let refusalSlots = 16

    private let listener: Int32
    private let policy: EgressPolicy
    private let resolver: any Resolver
    private let limits: EgressLimits
    private let onDenied: @Sendable (EgressRecord) -> Void
    private let state = Mutex(State())
    private let dropped = Mutex(0)
    private let stopRead: Int32
    private let stopWrite: Int32
    private let budget: ByteBudget

    /// Takes ownership of `listeningSocket` (closed by `stop()`). `onDenied` runs on a
    /// connection thread for each denial; keep it short (print `record.denialLine`).
    public init(
        listeningSocket: Int32, policy: EgressPolicy, resolver: any Resolver = SystemResolver(),
        limits: EgressLimits = EgressLimits(), onDenied: @escaping @Sendable (EgressRecord) -> Void = { _ in }
    ) throws {
        guard let (stopRead, stopWrite) = SocketIO.stopPipe() else {
            throw SentinelError(.io, "egress proxy: pipe failed: \(Errno.current.message)", errno: .current)
        }
        self.listener = listeningSocket
        self.policy = policy
        self.resolver = resolver
        self.limits = limits
        self.onDenied = onDenied
        self.stopRead = stopRead
        self.stopWrite = stopWrite
        self.budget = ByteBudget(limit: limits.maxTotalBytes)
    }

    /// Starts accepting on a background thread. Throws when the socket is not a listening
    /// socket or a thread cannot be started.
    public func start() throws {
        var listening: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(listener, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0, listening != 0 else {
            throw SentinelError(.invalidInput, "egress proxy: descriptor \(listener) is not a listening socket")
        }
        let first = state.withLock { state -> Bool in
            guard !state.started, !state.stopped else { return false }
            state.started = true
            state.liveThreads += 1
            return true
        }
        guard first else { throw SentinelError(.invalidInput, "egress proxy: already started or stopped") }
        SocketIO.setNonBlocking(listener)
        guard Self.spawnThread({ [self] in acceptLoop() }) else {
            state.withLock { $0.liveThreads -= 1 }
            throw SentinelError(.io, "egress proxy: cannot start the accept thread")
        }
    }

    /// Stops accepting, ends every connection, waits for all threads (up to `timeout`), closes
    /// the listener and returns every record. Safe to call more than once.
    @discardableResult
    public func stop(timeout: Duration = .seconds(10)) -> [EgressRecord] {
        let first = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return !state.stopped
        }
        if first {
            var byte: UInt8 = 1
            _ = write(stopWrite, &byte, 1)
            let deadline = ContinuousClock.now + timeout
            while state.withLock({ $0.liveThreads }) > 0 && ContinuousClock.now < deadline {
                usleep(1000)
            }
            // A thread still stuck (say, in getaddrinfo) may poll the pipe later: then the
            // descriptors stay open until `deinit`, which runs once the last thread is gone.
            let idle = state.withLock { state -> Bool in
                guard state.liveThreads == 0 else { return false }
                state.closed = true
                return true
            }
            if idle {
                close(listener)
                close(stopRead)
                close(stopWrite)
            } else {
                shutdown(listener, Int32(SHUT_RDWR))
            }
        }
        return records
    }

    /// Threads keep the proxy alive, so this runs only when none is left: release the
    /// descriptors that `stop()` could not (never stopped, or a thread outlived its timeout).
    deinit {
        let closed = state.withLock { $0.closed }
        if !closed {
            close(listener)
            close(stopRead)
            close(stopWrite)
        }
    }

    /// The records so far (finished connections only).
    public var records: [EgressRecord] { state.withLock { $0.records } }

    /// Records not kept because `maxRecords` was reached.
    public var droppedRecords: Int { dropped.withLock { $0 } }

    /// Connections currently being served (not counting ones being refused).
    public var activeConnections: Int { state.withLock { $0.active } }

    // MARK: Threads

    /// Runs `body` on a detached thread of its own (connections block in `poll`); false when
    /// the thread could not be made.
    static func spawnThread(_ body: @escaping @Sendable () -> Void) -> Bool {
        PosixThread.spawn {
            // A write into a socket whose peer left raises SIGPIPE, which would kill the whole
            // process: `send` passes MSG_NOSIGNAL, and proxy threads block it besides (the
            // sandboxed child's dispositions stay untouched; a blocked thread-directed SIGPIPE
            // just stays pending).
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &set, nil)
            body()
        } != nil
    }

    private var context: SessionContext {
        SessionContext(
            policy: policy, resolver: resolver, limits: limits, stopFd: stopRead, budget: budget,
            finish: { [self] record in finish(record) })
    }

    private func finish(_ record: EgressRecord) {
        let kept = state.withLock { state -> Bool in
            guard state.records.count < EgressProxy.maxRecords else { return false }
            state.records.append(record)
            return true
        }
        if !kept { dropped.withLock { $0 += 1 } }
        if !record.allowed { onDenied(record) }
    }

    private enum Admission { case serve, refuse, drop }

    private func acceptLoop() {
        defer { state.withLock { $0.liveThreads -= 1 } }
        let context = self.context
        while true {
            switch SocketIO.wait(listener, Int16(POLLIN), timeoutMs: -1, stopFd: stopRead) {
            case .stopped: return
            case .timeout: continue
            case .ready: break
            }
            let fd: Int32
            switch SocketIO.accept(listener) {
            case .success(let accepted):
                fd = accepted
            case .failure(let error):
                // EMFILE and friends: back off instead of spinning on a readable listener.
                if error.rawValue != EAGAIN && error.rawValue != ECONNABORTED { usleep(10_000) }
                continue
            }
            SocketIO.setNoDelay(fd)
            SocketIO.boundBuffers(fd, bytes: EgressLimits.socketBufferBytes)
            let admission = state.withLock { state -> Admission in
                let admission: Admission
                if state.active < limits.maxConnections {
                    state.active += 1
                    admission = .serve
                } else if state.refusing < EgressProxy.refusalSlots {
                    state.refusing += 1
                    admission = .refuse
                } else {
                    return .drop
                }
                state.liveThreads += 1
                return admission
            }
            if admission == .drop {
                close(fd)
                continue
            }
            let refusal = admission == .refuse ? "connection limit \(limits.maxConnections) reached" : nil
            let spawned = Self.spawnThread { [self] in
                EgressSession(client: fd, context: context, refusal: refusal).run()
                release(admission)
            }
            if !spawned {
                close(fd)
                release(admission)
            }
        }
    }

    private func release(_ admission: Admission) {
        state.withLock { state in
            if admission == .serve { state.active -= 1 } else { state.refusing -= 1 }
            state.liveThreads -= 1
        }
    }
}
