/// Time-based confirmation for a payload that asks for work rather than a sleep: `work(n)`
/// costs time proportional to `n`, at a rate no one knows in advance (the server's CPU). It
/// first finds an `n` whose delay is clearly above the baseline (from `start`, scaling by what
/// the last answer showed, a bounded number of times), then asks again in turn: `n` must delay,
/// a tiny `n` must not, `2n` must delay clearly more, a tiny `n` again must not — so one slow
/// answer of a loaded server is never enough, and the delay must follow the work asked for.
enum ScalingOracle {
    /// The delay sought: clear of a normal answer's jitter, short of any request timeout even doubled.
    static let clear: Double = 1
    /// A calibration answer this much slower than wanted is scaled down (the doubled one must
    /// still answer well within the 10-second default timeout).
    static let tooSlow: Double = 3
    /// Calibration answers at most (the first included).
    static let calibrations = 3
    /// The control's `n`: the same payload, next to no work.
    static let tiny = 1

    /// Rounds of calibration and confirmation at most: a loaded server (a CI runner, the
    /// scanner's own machine) can spoil one round with a single slow or fast moment, so a round
    /// whose answers showed work but did not follow it is tried again, from the `n` it reached.
    static let rounds = 3

    /// The `n` whose work delayed the answer as asked, or nil. `baseline` is the point's normal
    /// answer time; `send(n)` answers the elapsed seconds (nil: no answer); no `n` above `limit`
    /// is sent. On a point that does not run the work, one request: an answer that shows not a
    /// tenth of `clear` at `start` is taken as no work done (a server faster than that by ten
    /// times is missed); on one that does not answer, `calibrations` requests. On one that does, at most `rounds` times `calibrations` then 4; every
    /// round must show the whole pattern on its own, so noise across rounds never adds up to a
    /// confirmation. Throws only `RequestBudget.Exhausted`.
    static func confirms(baseline: Double, start: Int, limit: Int, send: (Int) throws -> Double?) throws -> Int? {
        // A point already this slow cannot show the difference reliably.
        guard baseline < clear, start >= 1, start <= limit / 2 else { return nil }
        var n = start
        for _ in 0..<rounds {
            switch try round(from: n, baseline: baseline, limit: limit, send: send) {
            case .confirmed(let confirmed): return confirmed
            case .noWork: return nil
            case .inconsistent(let reached): n = reached
            }
        }
        return nil
    }

    /// What one round of calibration and confirmation showed.
    private enum Round {
        /// The delay followed the work at this `n`.
        case confirmed(Int)
        /// No answer to any calibration request, or no sign of work at all: nothing to try again.
        case noWork
        /// Work showed, but a later answer did not follow it (or timed out); the `n` to start the
        /// next round from (smaller after a timeout).
        case inconsistent(Int)
    }

    /// Calibrates from `start` (scaling by what the last answer showed), then asks in turn: `n`
    /// must delay, a tiny `n` must not, `2n` must delay clearly more, a tiny `n` again must not.
    /// A calibration request that times out is taken as far too slow (a loaded server counts
    /// slower than any guess) and scaled down by 8; a round none of whose calibration requests
    /// was answered is no work.
    private static func round(from start: Int, baseline: Double, limit: Int, send: (Int) throws -> Double?) throws -> Round {
        var n = start
        var extra = try send(n).map { $0 - baseline }
        var answered = extra != nil
        var tries = 1
        while extra.map({ $0 < clear || $0 > tooSlow }) ?? true {
            if let shown = extra, shown < clear / 10 { return .noWork }
            guard tries < calibrations else { return answered ? .inconsistent(n) : .noWork }
            // Linear work: aim at twice `clear`, at most 8 times more or less than asked now.
            let factor = extra.map { min(8, max(1.0 / 8, 2 * clear / $0)) } ?? 1.0 / 8
            let next = min(limit / 2, Int(Double(n) * factor))
            guard next != n, next >= 1 else { return answered ? .inconsistent(n) : .noWork }
            n = next
            extra = try send(n).map { $0 - baseline }
            answered = answered || extra != nil
            tries += 1
        }
        // Work showed: from here an answer that does not come is a loaded moment's timeout.
        guard let work = try send(n).map({ $0 - baseline }) else { return .inconsistent(max(1, n / 4)) }
        guard work >= clear * 0.8 else { return .inconsistent(n) }
        guard let control = try send(tiny).map({ $0 - baseline }) else { return .inconsistent(n) }
        guard control < work / 2 else { return .inconsistent(n) }
        // Twice the work must show: at least 1.4 times the delay leaves room for jitter.
        guard let double = try send(2 * n).map({ $0 - baseline }) else { return .inconsistent(max(1, n / 2)) }
        guard double >= work * 1.4 else { return .inconsistent(n) }
        guard let recontrol = try send(tiny).map({ $0 - baseline }) else { return .inconsistent(n) }
        guard recontrol < work / 2 else { return .inconsistent(n) }
        return .confirmed(n)
    }
}
