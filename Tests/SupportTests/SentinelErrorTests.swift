import Support
import Testing

/// The exit statuses of DESIGN §3 that belong to an error's code, wherever it is thrown.
@Suite struct SentinelErrorTests {
    @Test(
        arguments: [
            (SentinelError.Code.invalidInput, 2), (.toolFailed, 3), (.sandboxSetup, 125), (.io, 1),
            (.unsupported, 1), (SentinelError.Code("added-later"), 1),
        ] as [(SentinelError.Code, Int32)])
    func codesCarryTheirExitStatus(code: SentinelError.Code, status: Int32) {
        #expect(code.exitStatus == status)
        #expect(SentinelError(code, "x").exitStatus == status)
    }

    @Test func messageIsTheDescription() {
        let error = SentinelError(.invalidInput, "c.yml: failOn: 'x' is not one of none, info")
        #expect("\(error)" == "c.yml: failOn: 'x' is not one of none, info")
        #expect(error.stage == nil)
    }
}
