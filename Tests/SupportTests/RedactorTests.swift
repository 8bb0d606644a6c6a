import Foundation
import Support
import Testing

/// The one redactor: which variables count as credentials, what is replaced, what is left alone.
@Suite("redactor")
struct RedactorTests {
    @Test(
        "credential-looking names count, others do not",
        arguments: [
            ("GITHUB_TOKEN", true), ("SENTINEL_LLM_KEY", true), ("AWS_SECRET_ACCESS_KEY", true), ("DB_PASSWORD", true),
            ("NPM_CONFIG_AUTH_TOKEN", true), ("SSH_KEY_FILE_CONTENT", true), ("PATH", false), ("HOME", false),
            ("GRPC_DEFAULT_SSL_ROOTS_FILE_PATH", false), ("KEYBOARD_LAYOUT", false),
        ])
    func names(name: String, secret: Bool) {
        #expect(Redactor.isSecretName(name) == secret)
    }

    @Test("values of the environment's credentials and of the named variables are replaced; the rest is kept")
    func environmentValues() {
        let environment = [
            "GITHUB_TOKEN": "token-value-0123", "DEPLOY_BOT": "deploy-value-4567", "HOME": "/root/home-dir",
            "SHORT_TOKEN": "abc",
        ]
        let redactor = Redactor(environment: environment, naming: ["DEPLOY_BOT"])
        let text = "a token-value-0123 b deploy-value-4567 c /root/home-dir abc"
        #expect(redactor.redact(text) == "a <redacted> b <redacted> c /root/home-dir abc")
        #expect(redactor.finds(in: text))
        #expect(!redactor.finds(in: "nothing here"))
        #expect(Redactor(environment: environment).redact(text).contains("deploy-value-4567"))
        #expect(redactor.redact(Array("x token-value-0123".utf8)) == Array("x <redacted>".utf8))
    }

    @Test("a secret containing another is replaced whole")
    func longestFirst() {
        let redactor = Redactor(secrets: ["secret-value", "secret-value-longer"])
        #expect(redactor.redact("[secret-value-longer]") == "[<redacted>]")
    }

    /// Matching is on bytes, not on characters: a combining mark after a secret (which makes its
    /// last letter and the mark one character) must not hide it.
    @Test("a secret is replaced even where the text around it joins its characters")
    func byteLevelMatching() {
        let redactor = Redactor(secrets: ["hunter2-value"], shapes: false)
        #expect(redactor.redact("x hunter2-value\u{301} y") == "x <redacted>\u{301} y")
        #expect(redactor.redact("\u{1F600}hunter2-value\u{1F600}") == "\u{1F600}<redacted>\u{1F600}")
    }

    @Test(
        "well-known token shapes are replaced without any variable naming them",
        arguments: [
            "ghp_" + String(repeating: "a1B2", count: 9), "github_pat_" + String(repeating: "Ab_1", count: 20) + "xy",
            "xoxb-1234567890-abcdefghij", "AKIA" + "Z7QM3XKD4HTVRN2P",
        ])
    func shapes(token: String) {
        #expect(Redactor().redact("key=\(token);") == "key=<redacted>;")
    }

    @Test("near misses of the shapes are left alone", arguments: ["ghp_short", "AKIA…(redacted, 20 chars)", "xoxb-short"])
    func nearMisses(text: String) {
        #expect(Redactor().redact(text) == text)
    }

    /// A run longer than any Slack token is not one token (the secrets scan's own rule), but its
    /// tail is: redacted, in one linear pass over a megabyte of prefixes.
    @Test("a long run of token prefixes is redacted in one linear pass")
    func repeatedPrefixes() {
        let text = String(repeating: "xoxb-", count: 200_000)
        let redacted = Redactor().redact(text)
        #expect(redacted.hasSuffix("<redacted>") && redacted.utf8.count < text.utf8.count)
    }

    /// The redactor knows every provider shape the secrets scan reports (one table): a Google API
    /// key or a Stripe live key quoted by a signal never reaches a PR body either.
    @Test(
        "every credential shape the secrets scan knows is replaced",
        arguments: [
            "AIza" + "SyD3kQ9mX2vL7pR4tN8wB6cF1hJ5gE0aZ_u",
            "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc",
            "glpat-" + "xY7kPq2LmN9vR4tW8sZ1",
        ])
    func everyKnownShape(token: String) {
        let redacted = Redactor().redact("deploy failed with key \(token) at step 3")
        #expect(redacted == "deploy failed with key <redacted> at step 3")
    }

    /// Hostile inputs round 3, finding 2: redaction runs on encoded bodies, where a secret holding
    /// `"`, `\` or `/` is spelled otherwise. Each encoding an output may give it is found too.
    @Test("a secret is found in every encoding an output may give it: JSON, percent, base64 at any alignment")
    func encodedForms() throws {
        let secret = #"pa"ss\wo/rd-\#(UUID().uuidString.prefix(8))"#
        let redactor = Redactor(secrets: [secret], shapes: false)
        struct Body: Encodable { var text: String }
        for encoder in [
            JSONEncoder(),
            {
                let e = JSONEncoder(); e.outputFormatting = .withoutEscapingSlashes; return e
            }(),
        ] {
            let json = String(decoding: try encoder.encode(Body(text: "said " + secret + " here")), as: UTF8.self)
            #expect(redactor.finds(in: json), "\(json)")
            let redacted = redactor.redact(json)
            #expect(redacted.contains(Redactor.replacement) && !redacted.contains("wo"), "\(redacted)")
        }
        let unicode = #"{"t":"pa\u0022ss\u005cwo/rd-"#
        #expect(redactor.redact(unicode + String(secret.suffix(8)) + #""}"#).contains(Redactor.replacement))
        let query = "q=" + (secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") + "&x=1"
        #expect(redactor.redact(query) == "q=" + Redactor.replacement + "&x=1")
        for user in ["u:", "us:", "use:"] {
            let basic = "Authorization: Basic " + Data((user + secret).utf8).base64EncodedString()
            let redacted = redactor.redact(basic)
            let left = redacted.dropFirst("Authorization: Basic ".count).replacingOccurrences(of: Redactor.replacement, with: "")
            #expect(redacted.contains(Redactor.replacement), "\(basic)")
            #expect(left.count < 8, "\(redacted)")
        }
    }
}
