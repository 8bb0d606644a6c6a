import Signals

/// What happened, verified candidate or not.
public struct HealOutcome: Sendable {
    /// The signal worked on last (the one fixed, when one was).
    public var signal: Signal
    /// The run of the verify command on the unchanged tree.
    public var baseline: Verification?
    /// Every proposal judged, in order.
    public var attempts: [Attempt]
    /// The verified candidate, if any.
    public var candidate: Candidate?
    /// Why the loop stopped.
    public var stopReason: HealStopReason
    /// Things to tell the user (an actor that failed, a signal that did not reproduce).
    public var notes: [String]
    /// Wall time of the whole loop, ms.
    public var totalMilliseconds: Int
    /// Time in verification runs, and the part of it spent setting up and tearing down sandboxes.
    public var verificationMilliseconds: Int
    /// Sandbox set-up and tear-down within `verificationMilliseconds`.
    public var sandboxOverheadMilliseconds: Int
    /// Past outcomes retrieved for the signal.
    public var memory: [MemoryRecord]
    /// Wall time by stage, in the order the stages first ran.
    public var stages: [HealStageTime] = []
}
