/// Why a heal loop stopped. The raw values are the words evidence.json and the summary print.
public enum HealStopReason: String, Sendable, Hashable, Codable {
    /// A candidate was verified.
    case verified
    /// `--max-attempts` candidates were judged.
    case maxAttempts = "max-attempts"
    /// The `--max-minutes` budget ran out.
    case maxMinutes = "max-minutes"
    /// Every proposal was judged and none was verified.
    case exhausted
    /// The verify command does not show the signal on the unchanged repository.
    case notReproduced = "not-reproduced"
    /// The verify command did not finish on the unchanged repository.
    case baselineTimeout = "baseline-timeout"
}
