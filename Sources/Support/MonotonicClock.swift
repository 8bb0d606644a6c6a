#if canImport(Glibc)
    import Glibc
#endif

/// CLOCK_MONOTONIC in nanoseconds: deadlines and durations that a change of the wall clock
/// cannot move (what `DispatchTime.now().uptimeNanoseconds` reads, without libdispatch).
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary start (boot), never going back.
    public static func nanoseconds() -> UInt64 {
        nanoseconds(of: CLOCK_MONOTONIC)
    }

    /// `nanoseconds()` in seconds.
    public static func seconds() -> Double {
        seconds(of: CLOCK_MONOTONIC)
    }

    /// Clock `id` in seconds (`CLOCK_BOOTTIME`: the monotonic clock with a suspended machine's sleep).
    public static func seconds(of id: clockid_t) -> Double {
        Double(nanoseconds(of: id)) / 1e9
    }

    /// Clock `id` in nanoseconds: `CLOCK_PROCESS_CPUTIME_ID` is the process's CPU time.
    public static func nanoseconds(of id: clockid_t) -> UInt64 {
        var now = timespec()
        clock_gettime(id, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
