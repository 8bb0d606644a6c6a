import DAST
import Testing
import TestSupport

/// The canary records the token a target fetched (the last path segment's letters and digits) with
/// the request line, and answers with its echo; a request it cannot read is answered, not recorded.
@Suite(.integration) struct CanaryListenerTests {
    @Test func aFetchIsRecordedAndEchoed() throws {
        let canary = try CanaryListener()
        defer { canary.stop() }
        let response = try RawHTTPClient.exchange(port: canary.port, "GET /oob/abc123.png HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(response.hasSuffix("\r\n\r\n" + CanaryRegistry.echo(of: "abc123")))
        #expect(canary.tokens == ["abc123": "GET /oob/abc123.png HTTP/1.1"])
        _ = try RawHTTPClient.exchange(port: canary.port, "not http\r\n\r\n")
        #expect(canary.tokens.count == 1)
    }
}
