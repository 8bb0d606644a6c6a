import Findings
import Testing
@testable import Secrets

@Suite struct SecretsDetectorTests {
    private func scan(_ text: String) -> [Finding] {
        SecretsDetector().scan(file: "x.py", bytes: Array(text.utf8))
    }

    // Assembled at run time so this test file itself holds no token-shaped strings.
    static let aws = "AKIA" + "Q3EGZT7RKMXJ4HVN"
    static let github = "ghp_" + String(repeating: "aB3dE5gH7jK9", count: 3)
    /// 64 base64 characters, like the body of the smallest key in use (made here, not a key).
    static let keyBody: String = {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var body = ""
        for i in 0..<64 { body.append(alphabet[(i * 37 + 11) % 64]) }
        return body
    }()
    /// AWS's documented example access key id (assembled: no key-shaped literal in the tree).
    static let awsDocumented = "AKIA" + "IOSFODNN7" + "EXAMPLE"
    static let slack = "xoxb-" + "2837465019-9182736450-" + "QwErTyUiOpAsDfGhJkLzXcVb"

    @Test(arguments: [
        ("key = \"\(aws)\"", "secrets.aws-access-key-id"),
        ("token: \(github)", "secrets.github-token"),
        ("SLACK = '\(slack)'", "secrets.slack-token"),
        ("-----BEGIN RSA PRIVATE KEY-----\n\(keyBody)\n-----END RSA PRIVATE KEY-----", "secrets.private-key"),
        ("-----BEGIN OPENSSH PRIVATE KEY-----\n\(keyBody)\n-----END OPENSSH PRIVATE KEY-----", "secrets.private-key"),
        ("key = \"-----BEGIN PRIVATE KEY-----\\n\(keyBody)\\n-----END PRIVATE KEY-----\\n\"", "secrets.private-key"),
        (
            "{\"private_key\": \"-----BEGIN PRIVATE KEY-----\\n\(keyBody)\\n-----END PRIVATE KEY-----\\n\", \"client_email\": \"x\"}",
            "secrets.private-key"
        ),
        (
            "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\n\(keyBody)\n-----END RSA PRIVATE KEY-----",
            "secrets.private-key"
        ),
        (
            "K = (\"-----BEGIN EC PRIVATE KEY-----\\n\"\n  \"\(String(keyBody.prefix(40)))\\n\"\n  \"\(String(keyBody.dropFirst(40)))\\n\"\n  \"-----END EC PRIVATE KEY-----\")",
            "secrets.private-key"
        ),
        ("DB_PASSWORD = \"Xk9#mQ2$vLp8@wZ\"", "secrets.generic-password"),
        ("{\"api_key\": \"9f8e7d6c5b4a3f2e1d0c\"}", "secrets.generic-password"),
        // JavaScript and TypeScript string syntax (issue 60): a template literal, a typed field.
        ("const DB_PASSWORD = `Xk9#mQ2$vLp8@wZ`;", "secrets.generic-password"),
        ("  private readonly apiKey: string = 'sk9f8e7d6c5b4a3f2e1d0c';", "secrets.generic-password"),
    ])
    func detects(line: String, rule: String) {
        let findings = scan(line)
        #expect(findings.map(\.ruleId) == [rule], "\(line)")
    }

    @Test(arguments: [
        "password = \"changeme\"",
        "password = os.environ[\"DB_PASSWORD\"]",
        "password = \"${DB_PASSWORD}\"",
        "const password = `${prefix}Xk9#mQ2vLp8wZ`;",
        "  apiKey: string = process.env.API_KEY ?? '';",
        "if password == \"aaaaaaaaaaaa\": pass",
        "password = \"short\"",
        "api_key = \"your-api-key-here\"",
        // An example cut short for the reader, and a passkey provider's AAGUID under a password
        // name (issue 55).
        "  OnePassword = \"bada5566-a7aa-401f-bd96-45619a55120d\",",
        "token: \"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9...\",",
        "-----BEGIN PUBLIC KEY-----",
        // Mentions of a key, not keys (issue 55: all ten on real code at the gate were these).
        "\"privateKey\": \"-----BEGIN RSA PRIVATE KEY-----...\"",
        "placeholder=\"-----BEGIN PRIVATE KEY-----\"\n></textarea>",
        ".matches(/-----BEGIN PGP PRIVATE KEY BLOCK-----.+-----END PGP PRIVATE KEY BLOCK-----/)",
        "KEY=\"-----BEGIN RSA PRIVATE KEY-----\\nMIIEpAIBAAKCAQEA\\n-----END RSA PRIVATE KEY-----\"",
        "env.KEY = \"-----BEGIN RSA PRIVATE KEY-----\";",
        "-----BEGIN PRIVATE KEY-----\n" + String(repeating: "A", count: 80) + "\n-----END PRIVATE KEY-----",
        "XAKIAQ3EGZT7RKMXJ4HVNQQQ",
        "token = get_token()",
        // Issue 55: what real code says about secrets, not secrets.
        "key = \"\(awsDocumented)\"",
        "access_token_url = \"https://github.com/login/oauth/access_token\"",
        "tokenURL: \"https://discord.com/api/oauth2/token\",",
        "PASSWORD_HASH_ALGORITHM = \"pbkdf2_sha256x2\"",
        "SECRET_KEY_CHARSET = 'abcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*(-_=+)'",
        "HEADLESS_TOKEN_STRATEGY = \"paperless.auth.TokenStrategy\"",
        "MembersCanCreateApiKey = \"membersCanCreateApiKey\",",
        // Issue 75: a type written as a string is no value (`name: "Type" = default`).
        "    otp_secret: \"Optional[str]\" = None",
        "    api_token: 'Dict[str, List[Token]]' = {}",
        "    TOKENWIZARD2ND = \"tokenwizard_2nd_token\"",
        "password = \"5f4dcc3b5aa765d61d8327deb882cf99\"",
        "'password': 'pbkdf2_sha256$600000$Q2x1c3Rlcg$abc123XYZ'",
        "password: \"$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW\"",
    ])
    func ignores(line: String) {
        #expect(scan(line).isEmpty, "\(line)")
    }

    /// Issue 55: a password in a Python docstring is an example for the reader (low severity, not
    /// silence); the same value in code, or in a multi-line string that is no docstring, is not.
    @Test func aDocstringHoldsExamples() throws {
        let value = "Xk9#mQ2$vLp8@wZ"
        let text = """
            \"\"\"Module docstring: db_password = "\(value)"\"\"\"
            import os


            class Store:
                def save(
                    self, token,
                ) -> None:
                    '''Persist the token, e.g.::

                        {'access_token': "\(value)", "expires_in": 3600}
                    '''
                    query = \"\"\"
                        db_password = "\(value)"
                    \"\"\"
                    db_password = "\(value)"  # '''not a docstring'''
                    return query

            """
        let findings = scan(text).filter { $0.ruleId == "secrets.generic-password" }
        let lowered = findings.filter { $0.severity == .low }.compactMap(\.location.startLine)
        let kept = findings.filter { $0.severity == .medium }.compactMap(\.location.startLine)
        #expect(lowered == [1, 11], "\(findings.map { ($0.location.startLine ?? 0, $0.severity) })")
        #expect(kept == [14, 16], "\(findings.map { ($0.location.startLine ?? 0, $0.severity) })")
        #expect(PythonDocstrings.lines(in: Array(text.utf8)) == Set([1, 9, 10, 11, 12]))
    }

    @Test func redactsTheSecretEverywhere() throws {
        let finding = try #require(scan("aws_key = \"\(Self.aws)\"\n").first)
        let secret = Self.aws
        #expect(!finding.message.contains(secret))
        #expect(!(finding.snippet ?? "").contains(secret))
        #expect(!(finding.evidence ?? "").contains(secret))
        #expect(finding.message.contains("AKIA…(redacted, 20 chars)"))
        #expect(finding.location.startLine == 1)
        #expect(finding.location.startColumn == 12)
        #expect(finding.cwe == [798])
    }

    @Test func reportsTheRightLine() {
        let findings = scan("a = 1\nb = 2\nk = \"\(Self.aws)\"\n")
        #expect(findings.first?.location.startLine == 3)
    }

    /// CRLF and lone-CR files count lines as LF files do, and the CR stays out of the snippet.
    @Test(arguments: ["\r\n", "\r"])
    func reportsTheRightLineWhateverTheLineEnding(newline: String) {
        let lines = ["a = 1", "b = 2", "k = \"\(Self.aws)\"", "password = \"Zq8#rT2!vLp9@wXs\"", ""]
        let findings = scan(lines.joined(separator: newline))
        #expect(findings.map(\.location.startLine) == [3, 4])
        #expect(findings.map(\.location.startColumn) == [6, 13])
        #expect(!findings.contains { $0.snippet?.contains("\r") ?? false })
    }

    /// Issue 55: a password's place says what it is. Lockfiles and message catalogues hold no
    /// secrets; tests, CI files, examples and documentation hold fixtures (reported low, not
    /// dropped); an issued token is reported at its severity anywhere.
    @Test(arguments: [
        ("app/settings.py", "medium"), ("yarn.lock", "none"), ("locales/fr/common.json", "none"),
        ("src/i18n/de.ts", "none"), ("docs/setup.md", "low"), ("README.rst", "low"), ("src/api.test.ts", "low"),
        ("src/__tests__/api.ts", "low"), (".github/workflows/ci.yml", "low"), ("config/.env.example", "low"),
        ("examples/app/config.py", "low"), ("web/components/Widget.tsx", "low"), ("src/Chat.vue", "low"),
        ("src/widget.jsx", "low"), ("server/api/client.ts", "medium"),
    ])
    func aPasswordsPlace(file: String, severity: String) {
        let findings = SecretsDetector().scan(file: file, bytes: Array("DB_PASSWORD = \"Xk9#mQ2$vLp8@wZ\"\n".utf8))
        #expect((findings.first.map { "\($0.severity)" } ?? "none") == severity, "\(file): \(findings)")
        let token = SecretsDetector().scan(file: file, bytes: Array("key = \"\(Self.aws)\"\n".utf8))
        #expect(token.map(\.severity) == [.high], "\(file)")
    }
}
