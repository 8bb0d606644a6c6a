#if canImport(Glibc)
    import Glibc
#endif

/// A counting semaphore whose timed wait ends by the monotonic clock.
///
/// Dispatch's semaphore turns a timeout into a wall-clock deadline on Linux (`sem_timedwait`), so a
/// step of the machine's clock back during the wait stretches it by the step's size, and a step
/// forward cuts it short: a worker's lease heartbeat asleep in one renewed nothing for an hour after
/// `date -s` an hour back (issue 81). This one waits on a condition variable bound to
/// `CLOCK_MONOTONIC` (`pthread_condattr_setclock`), which no step of the wall clock moves. The
/// launch broker counts its concurrent launches with one too.
public final class MonotonicSemaphore: @unchecked Sendable {
    // Allocated once and never moved: POSIX forbids copying a mutex or condition variable.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Signals not yet taken; read and written under `mutex` only.
    private var count: Int

    /// A semaphore holding `value` signals.
    public init(value: Int = 0) {
        count = value
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Adds a signal, waking one waiter.
    public func signal() {
        pthread_mutex_lock(mutex)
        count += 1
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Takes a signal, waiting as long as it takes.
    public func wait() {
        pthread_mutex_lock(mutex)
        while count == 0 { pthread_cond_wait(condition, mutex) }
        count -= 1
        pthread_mutex_unlock(mutex)
    }

    /// Takes a signal, waiting at most `seconds` of the monotonic clock; whether one was taken.
    @discardableResult
    public func wait(seconds: Double) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        // A NaN or negative wait is no wait; a century is as good as forever and cannot overflow.
        let wait = seconds.isNaN ? 0 : min(max(0, seconds), 3_153_600_000)
        let whole = wait.rounded(.down)
        var nanoseconds = Int(deadline.tv_nsec) + Int((wait - whole) * 1e9)
        deadline.tv_sec += time_t(whole) + time_t(nanoseconds / 1_000_000_000)
        nanoseconds %= 1_000_000_000
        deadline.tv_nsec = nanoseconds
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while count == 0 {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
        }
        guard count > 0 else { return false }
        count -= 1
        return true
    }

    /// Runs `body` holding one signal, given back when it returns or throws.
    public func holding<T>(_ body: () throws -> T) rethrows -> T {
        wait()
        defer { signal() }
        return try body()
    }
}
