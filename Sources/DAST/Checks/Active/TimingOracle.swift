/// Time-based confirmation: a payload that asks for a delay of `d` seconds must delay the
/// answer by at least `d` every time, while the same payload asking for no delay must not. The
/// check sends delayed, undelayed and longer-delayed variants in turn (ZAP's and sqlmap's idea),
/// so one slow answer of a loaded server is never enough.
enum TimingOracle {
    /// The delays asked for, in order: the first must show, the undelayed control must not,
    /// the longer one must show again.
    static let delay: Double = 2
    static let longerDelay: Double = 3

    /// True when `send(delay)` answers are consistent with the target sleeping as asked.
    /// `baseline` is the point's normal answer time. Throws only `RequestBudget.Exhausted`.
    static func confirms(baseline: Double, send: (Double) throws -> Double?) throws -> Bool {
        // A point that is already slow cannot show a 2-second difference reliably.
        guard baseline < delay else { return false }
        guard let first = try send(delay), first >= delay * 0.95 + baseline * 0.5 else { return false }
        guard let control = try send(0), control < delay * 0.75 + baseline else { return false }
        guard let second = try send(longerDelay), second >= longerDelay * 0.95 + baseline * 0.5 else { return false }
        guard let recontrol = try send(0), recontrol < delay * 0.75 + baseline else { return false }
        return true
    }
}
