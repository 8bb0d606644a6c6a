import Support

/// Wall time heal spent in one stage, summed over its occurrences: the baseline run, the traced
/// run, each actor's proposing and each actor's verifying (every run of its candidates, re-runs
/// and the winner's coverage run included). `heal` prints them so that a slow heal says where
/// its minutes went (the verify command, or heal itself).
public struct HealStageTime: Sendable, Codable, Hashable {
    /// `baseline`, `trace`, `ACTOR proposing` or `ACTOR verifying`.
    public var stage: String
    /// Milliseconds, summed.
    public var milliseconds: Int
    /// How many times the stage ran.
    public var count: Int

    /// One stage's total.
    public init(stage: String, milliseconds: Int, count: Int = 1) {
        self.stage = stage
        self.milliseconds = milliseconds
        self.count = count
    }
}

/// The stages in the order they first ran.
struct HealStageClock {
    private(set) var stages: [HealStageTime] = []

    /// A monotonic reading to pass to ``spent(_:since:)``.
    static func now() -> UInt64 { MonotonicClock.nanoseconds() }

    /// Adds the time since `start` to `stage`.
    mutating func spent(_ stage: String, since start: UInt64) {
        let milliseconds = Int((Self.now() &- start) / 1_000_000)
        if let index = stages.firstIndex(where: { $0.stage == stage }) {
            stages[index].milliseconds += milliseconds
            stages[index].count += 1
        } else {
            stages.append(HealStageTime(stage: stage, milliseconds: milliseconds))
        }
    }
}
