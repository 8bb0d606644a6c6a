#if canImport(Glibc)
    import Glibc
#endif
import Support
import Synchronization

/// Lets another thread stop a running sandbox, e.g. a CLI forwarding Ctrl-C: the init is
/// killed, which takes the whole tree down, and the run reports the requested signal.
public final class LaunchHandle: Sendable {
    private let pid = Atomic<Int32>(0)
    private let requested = Atomic<Int32>(0)
    private let terminal = Mutex<CallerTerminal?>(nil)
    /// What ``terminate(signal:)`` also runs, by token (``whenTerminated(_:)``).
    private let observers = Mutex<(next: Int, actions: [Int: @Sendable () -> Void])>((0, [:]))

    /// Makes a handle with no sandbox attached yet.
    public init() {}

    /// Stops the sandbox (now, or as soon as it has started) and records `signal` as the cause.
    public func terminate(signal: Int32) {
        requested.store(signal, ordering: .sequentiallyConsistent)
        let current = pid.load(ordering: .sequentiallyConsistent)
        if current > 0 { kill(current, SIGKILL) }
        observers.withLock { for action in $0.actions.values { action() } }
    }

    /// Runs `action` when the run is stopped (at once when it was already), until the token
    /// returned is given to ``stopObserving(_:)``: a run in another process (a brokered launch)
    /// is stopped by a call, not by a thread that polls this handle.
    public func whenTerminated(_ action: @escaping @Sendable () -> Void) -> Int {
        observers.withLock { observers in
            if requestedSignal != nil { action() }
            observers.next += 1
            observers.actions[observers.next] = action
            return observers.next
        }
    }

    /// Forgets the action ``whenTerminated(_:)`` returned `token` for; it never runs after this returns.
    public func stopObserving(_ token: Int) {
        _ = observers.withLock { $0.actions.removeValue(forKey: token) }
    }

    /// Passes `signal` to the payload itself, which handles it as it will (a fleet worker
    /// drains its jobs): the init, its parent inside, neither forwards nor takes signals. A run
    /// whose payload is not there yet (not started, the init not yet forked it) or no longer
    /// is has nothing to drain: it is stopped as ``terminate(signal:)`` stops it. (It was left
    /// alone, and a root fleet worker signalled as it started ran on until its grace ended.)
    public func deliver(signal: Int32) {
        let current = pid.load(ordering: .sequentiallyConsistent)
        var delivered = 0
        // The init's children: the payload, and what it left to the init (daemons, orphans).
        let path = "/proc/\(current)/task/\(current)/children"
        if current > 0, let data = try? BoundedFile.read(path, limit: 1 << 16, followLinks: false) {
            for word in String(decoding: data, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" }) {
                if let child = Int32(word), child > 0, kill(child, signal) == 0 { delivered += 1 }
            }
        }
        if delivered == 0 { terminate(signal: signal) }
    }

    /// The signal a caller asked to stop with, if any.
    public var requestedSignal: Int32? {
        let value = requested.load(ordering: .sequentiallyConsistent)
        return value == 0 ? nil : value
    }

    /// Kills the sandbox tree and puts the caller's terminal back (if a `-t` run made it
    /// raw), for a caller about to exit without waiting for the run to finish.
    public func abandon(signal: Int32) {
        terminate(signal: signal)
        terminal.withLock { $0?.restore() }
    }

    func usingTerminal(_ caller: CallerTerminal?) {
        terminal.withLock { $0 = caller }
    }

    func started(_ process: pid_t) {
        pid.store(process, ordering: .sequentiallyConsistent)
        if requestedSignal != nil { kill(process, SIGKILL) }
    }

    func ended() {
        pid.store(0, ordering: .sequentiallyConsistent)
    }
}
