import Foundation
import Sandbox
import Testing

@testable import Heal

/// The enums that replaced heal's strings (issue 57) encode and print the words the strings held,
/// so evidence.json, the summary, memory rows and shared attempts read as before.
@Suite("heal's typed words")
struct TypedWordsTests {
    static func word(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    @Test("stop reasons, run endings and verdicts encode as their words")
    func encodeAsWords() throws {
        let reasons: [HealStopReason] = [.verified, .maxAttempts, .maxMinutes, .exhausted, .notReproduced, .baselineTimeout]
        #expect(
            try reasons.map(Self.word)
                == [
                    #""verified""#, #""max-attempts""#, #""max-minutes""#, #""exhausted""#, #""not-reproduced""#,
                    #""baseline-timeout""#,
                ])
        #expect(try Self.word(RunResult.Reason.setupFailed) == #""setup-failed""#)
        #expect(try Self.word(Verdict.flaky) == #""flaky""#)
    }

    @Test("a run that did not exit names its ending in the summary as the sandbox words it")
    func summaryWords() {
        #expect(TracerInjectionTests.run(reason: .setupFailed, exit: 125).summary.hasPrefix("setup-failed (exit 125)"))
        #expect(TracerInjectionTests.run(reason: .timeout, exit: 124).summary.hasPrefix("timeout (exit 124)"))
    }

    @Test("a stored verdict this version does not know counts as failed, never as a fix to replay")
    func unknownStoredVerdict() {
        #expect(Verdict(stored: "verified") == .verified)
        #expect(Verdict(stored: "maybe") == .failed)
        #expect(Verdict(stored: nil) == .failed)
    }
}
