import DAST
import Support
import Testing

@testable import Scan

/// Hostile inputs round 3, finding 4: a target that echoes the `--header` or `--cookie` values the
/// operator gave the scan must not get them into the report; only login fields were redacted.
struct DASTCredentialRedactionTests {
    @Test("header values, the token after an auth scheme, and cookie values are the scan's credentials")
    func operatorCredentialsAreRedacted() throws {
        var options = WebScanOptions(target: "http://app.example/")
        options.headers = ["Authorization: Bearer tok-1234567890abcdef", "X-Api-Key: key-abcdef0123456789"]
        options.cookies = ["session=sess-0011223344556677"]
        let redactor = Redactor(secrets: NativeDASTScanner.credentialValues(of: options), shapes: false)
        let echoed = """
            GET / HTTP/1.1
            Authorization: Bearer tok-1234567890abcdef
            X-Api-Key: key-abcdef0123456789
            Cookie: session=sess-0011223344556677
            token was tok-1234567890abcdef, and {"session": "sess-0011223344556677"}
            """
        let redacted = redactor.redact(echoed)
        for secret in ["tok-1234567890abcdef", "key-abcdef0123456789", "sess-0011223344556677"] {
            #expect(!redacted.contains(secret), "\(secret) in \(redacted)")
        }
    }
}
