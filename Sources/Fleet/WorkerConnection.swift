import Foundation
import Store
import Support
import Synchronization

/// The one queue connection a worker process shares between its slots, its lease heartbeat and
/// its jobs: each user holds it for one short transaction or statement at a time (never across a
/// wait: waits go through `FleetListener`). 100 machines at any concurrency hold 200 PostgreSQL
/// connections (this one and the listener's), not one per slot plus one per running job.
final class WorkerConnection: Sendable {
    private struct State: ~Copyable {
        var queue: JobQueue?
        /// The heal locks this process holds: PostgreSQL's advisory locks are re-entrant per
        /// session, so two slots on one session would both "get" the same key without this.
        var held: Set<String> = []
    }

    private let url: DatabaseURL
    private let retry: RetryPolicy
    private let state = Mutex(State())

    init(url: DatabaseURL, retry: RetryPolicy) {
        self.url = url
        self.retry = retry
    }

    /// Runs `body` on the connection (opened on first use), holding it meanwhile.
    func with<Result: Sendable>(_ body: (JobQueue) throws -> Result) throws -> Result {
        try state.withLock { state throws -> Result in
            let queue = try state.queue ?? JobQueue(url: url, retry: retry)
            state.queue = queue
            return try body(queue)
        }
    }

    /// Reconnects after the server went away (a restart); a no-op when the connection is up. The
    /// advisory locks of the old session are gone with it, as they were with a slot's own session.
    func reconnectIfNeeded() {
        state.withLock { state in
            guard let queue = state.queue else { return }
            do { try queue.reconnectIfNeeded() } catch { return }
        }
    }

    /// Takes the fleet-wide lock `key` without waiting: false when another worker holds it, or
    /// another slot of this one.
    func tryLock(_ key: String) throws -> Bool {
        try state.withLock { state throws -> Bool in
            guard !state.held.contains(key) else { return false }
            let queue = try state.queue ?? JobQueue(url: url, retry: retry)
            state.queue = queue
            guard try queue.tryLock(key) else { return false }
            state.held.insert(key)
            return true
        }
    }

    /// Releases a lock `tryLock` took.
    func unlock(_ key: String) {
        state.withLock { state in
            guard state.held.remove(key) != nil else { return }
            try? state.queue?.unlock(key)
        }
    }
}

/// Wakes the threads waiting for an event (a submission, a decision): condition-variable style,
/// with a generation number so that an event between a look and the wait is not missed.
final class WakeSignal: Sendable {
    private let state = Mutex<(generation: UInt64, waiters: [MonotonicSemaphore])>((0, []))

    /// The current generation: take it before looking, then `wait(after:)` it.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// Waits until the generation moves past `seen` or `timeout` seconds pass.
    func wait(after seen: UInt64, timeout: Double) {
        let semaphore = MonotonicSemaphore()
        let moved = state.withLock { state -> Bool in
            if state.generation != seen { return true }
            state.waiters.append(semaphore)
            return false
        }
        guard !moved else { return }
        if !semaphore.wait(seconds: timeout) {
            state.withLock { state in state.waiters.removeAll { $0 === semaphore } }
        }
    }

    /// Wakes every waiter.
    func fire() {
        let waiters = state.withLock { state -> [MonotonicSemaphore] in
            state.generation &+= 1
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.signal() }
    }
}

/// The worker's listening connection (PostgreSQL): LISTENs on the jobs and approvals channels
/// and wakes the slots waiting for work and the heals waiting for a decision. On SQLite, which
/// has no notifications, there is none: waiters poll at `pollInterval`. A lost session is
/// opened again at once (then after `ReconnectDelay` while the server refuses it), and
/// until it listens again waiters poll: at `pollInterval` for `quickPollSeconds`, then at
/// `awayPollInterval`, so that a fleet whose listeners a full server refuses does not add ten
/// claims a second per slot to its load.
final class FleetListener: Sendable {
    /// Fired on each submission.
    let submitted = WakeSignal()
    /// Fired on each approval decision.
    let decided = WakeSignal()
    private let notifies: Bool
    /// Since when (monotonic seconds) no session has listened; nil while one LISTENs, when
    /// waits may last until their timeout.
    private let awaySince = Mutex<Double?>(MonotonicClock.seconds())
    private let finished = Mutex(false)
    private let done = DispatchSemaphore(value: 0)
    /// How often a waiter looks again where nothing notifies (SQLite), or after a lost listener.
    static let pollInterval = 0.1
    /// How long after a listener was lost waiters poll at `pollInterval`.
    static let quickPollSeconds = 2.0
    /// How often waiters look again after that, until a session listens.
    static let awayPollInterval = 1.0

    /// Starts listening on `url` (nothing to listen on for SQLite). `onError` is told each failure
    /// of the listening session; `onListening` each time it listens again after one.
    init(
        url: DatabaseURL, onError: @escaping @Sendable (any Error) -> Void,
        onListening: @escaping @Sendable (_ failures: Int) -> Void = { _ in }
    ) {
        if case .postgres = url { notifies = true } else { notifies = false }
        guard notifies else {
            done.signal()
            return
        }
        let thread = Thread { [self] in
            listen(url: url, onError: onError, onListening: onListening)
            done.signal()
        }
        thread.name = "fleet-listener"
        thread.start()
    }

    /// True while notifications arrive (a session LISTENs); false on SQLite.
    var isListening: Bool { notifies && awaySince.withLock { $0 } == nil }

    /// Waits up to `timeout` seconds for `signal` to fire after generation `seen`; on SQLite at
    /// most `pollInterval`, and while a lost listener is being opened again at most
    /// `pollInterval` or, after `quickPollSeconds`, `awayPollInterval`.
    func wait(_ signal: WakeSignal, after seen: UInt64, timeout: Double) {
        signal.wait(after: seen, timeout: min(timeout, longestWait))
    }

    private var longestWait: Double {
        guard notifies else { return Self.pollInterval }
        guard let since = awaySince.withLock({ $0 }) else { return .infinity }
        return MonotonicClock.seconds() - since < Self.quickPollSeconds ? Self.pollInterval : Self.awayPollInterval
    }

    /// Stops listening; returns when the listening thread has ended.
    func stop() {
        finished.withLock { $0 = true }
        done.wait()
    }

    private func listen(url: DatabaseURL, onError: @Sendable (any Error) -> Void, onListening: @Sendable (Int) -> Void) {
        var queue: JobQueue?
        var failures = 0
        while !finished.withLock({ $0 }) {
            do {
                let connected = try queue ?? JobQueue(url: url)
                if queue == nil {
                    queue = connected
                    // LISTEN now; anything sent before it was missed: everyone looks again.
                    _ = try connected.nextNotification(timeout: 0)
                    awaySince.withLock { $0 = nil }
                    submitted.fire()
                    decided.fire()
                    if failures > 0 { onListening(failures) }
                    failures = 0
                }
                // Short waits: `stop` is seen within a second.
                guard let note = try connected.nextNotification(timeout: 1) else { continue }
                switch note.kind {
                case .submitted: submitted.fire()
                case .decided: decided.fire()
                }
            } catch {
                // A new session after a lost one (its LISTENs are gone with it). Until it
                // listens, waiters poll: they are woken now to wait again that way.
                let wasListening = awaySince.withLock { since in
                    defer { since = since ?? MonotonicClock.seconds() }
                    return since == nil
                }
                if wasListening {
                    submitted.fire()
                    decided.fire()
                }
                queue = nil
                failures += 1
                onError(error)
                pause(ReconnectDelay.seconds(failures: failures))
            }
        }
        awaySince.withLock { $0 = $0 ?? MonotonicClock.seconds() }
    }

    /// Sleeps `seconds` in short steps, so that `stop` is seen within a tenth of a second.
    private func pause(_ seconds: Double) {
        let until = MonotonicClock.seconds() + seconds
        while !finished.withLock({ $0 }) {
            let remaining = until - MonotonicClock.seconds()
            guard remaining > 0 else { return }
            Thread.sleep(forTimeInterval: min(remaining, 0.1))
        }
    }
}
