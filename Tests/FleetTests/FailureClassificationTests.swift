import Fleet
import Store
import Support
import Testing

/// Issue 58: the one mapping from what a job's run threw (or how its `sentinel` child exited) to the
/// failure class the retry policy reads. Deterministic refusals are `invalid` and never retried;
/// clones (git, the network) are `checkout`.
struct FailureClassificationTests {
    @Test(
        "each SentinelError code maps to its class",
        arguments: [
            // Git's, HTTP's and Store's codes by their stable names (this target imports neither Git nor HTTP).
            (SentinelError.Code.invalidInput, FailureClass.invalid), (.untrustedPath, .invalid),
            (SentinelError.Code("patch-stale"), .invalid),
            (SentinelError.Code("git"), .checkout), (SentinelError.Code("network"), .checkout), (.toolFailed, .tool),
            (.database, .infrastructure), (.io, .infrastructure),
            (.sandboxSetup, .infrastructure), (.unsupported, .infrastructure), (SentinelError.Code("something-new"), .tool),
            (SentinelError.Code("refused-new", exitStatus: 2), .invalid),
        ])
    func codes(_ code: SentinelError.Code, _ expected: FailureClass) {
        #expect(FailureClass.of(SentinelError(code, "x")) == expected)
    }

    @Test("an error that is no SentinelError is a tool failure; a child's exit status 2 is invalid, any other a tool failure")
    func others() {
        struct Odd: Error {}
        #expect(FailureClass.of(Odd()) == .tool)
        #expect(FailureClass.ofExitStatus(2) == .invalid)
        #expect(FailureClass.ofExitStatus(3) == .tool && FailureClass.ofExitStatus(137) == .tool)
    }

    @Test("the default policy never retries invalid, retries a timeout once, and the rest up to the job's maximum")
    func defaults() {
        let policy = RetryPolicy(base: 0, maximum: 0)
        #expect(policy.decide(afterAttempt: 1, maxAttempts: 5, failure: .invalid).state == .failed)
        #expect(policy.decide(afterAttempt: 1, maxAttempts: 5, failure: .timeout).state == .queued)
        #expect(policy.decide(afterAttempt: 2, maxAttempts: 5, failure: .timeout).state == .dead)
        for failure in [FailureClass.checkout, .tool, .leaseExpired, .infrastructure] {
            #expect(policy.decide(afterAttempt: 4, maxAttempts: 5, failure: failure).state == .queued)
            #expect(policy.decide(afterAttempt: 5, maxAttempts: 5, failure: failure).state == .dead)
        }
    }
}
