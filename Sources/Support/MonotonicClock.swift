#if canImport(Glibc)
    import Glibc
#endif

/// CLOCK_MONOTONIC in nanoseconds: deadlines and durations that a change of the wall clock
/// cannot move (what `DispatchTime.now().uptimeNanoseconds` reads, without libdispatch).
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary start (boot), never going back.
    public static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
