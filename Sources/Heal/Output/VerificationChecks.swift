import Signals

/// What verifying a candidate checked beyond the command's exit status, for the evidence: a
/// reviewer reads here that the failing tests themselves passed, that the signal's exception or
/// log line was gone from the output, and which files were the tests' own (a candidate editing
/// one is refused before it runs).
public struct VerificationChecks: Sendable, Hashable, Codable {
    /// The signal's failing tests, each passing in every run of the candidate.
    public var failingTestsPassed: [String]
    /// For an exception or error-log signal: what the output no longer shows.
    public var signalGone: String?
    /// Files the tests are made of, from the traced baseline run (collected test modules,
    /// conftests, helpers only tests import, data they read), at most ``maximumListed``.
    public var testFiles: [String]
    /// How many such files there were in all.
    public var testFileCount: Int

    /// Most test files listed.
    public static let maximumListed = 100

    /// The checks of a candidate for `signal` verified by `runs`, with the tests' own files `oracle`.
    public init(signal: Signal, runs: [Verification], oracle: OracleFiles) {
        failingTestsPassed = signal.failingTests.filter { test in runs.allSatisfy { $0.passedTests.contains(test) } }
        signalGone =
            SignalEcho.applies(to: signal)
            ? signal.exceptionType.map { "\($0) is no longer raised" } ?? "the error is no longer logged" : nil
        testFiles = Array(oracle.files.sorted().prefix(Self.maximumListed))
        testFileCount = oracle.files.count
    }
}
