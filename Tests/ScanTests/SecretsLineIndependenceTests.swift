import Findings
@testable import Secrets
import Testing
import TestSupport

/// The detector finds the lines its checks can find anything on by searching the whole file once
/// for their keywords and token prefixes (issue 77); each check still reads one line. So a file's
/// findings must be those of its lines scanned one by one, and found on exactly the lines where
/// the checks themselves, run on every line, find something: whatever mix of names, cases,
/// quotes, values and line ends the file holds.
@Suite struct SecretsLineIndependenceTests {
    static let names = [
        "password", "PassWord", "DB_PASSWORD", "API_KEY", "apiKey", "api-key", "Access_Token", "auth_token",
        "client_secret", "PRIVATE_KEY", "pwd", "passwd", "token", "TOKEN_URL", "aws_secret_access_key",
        "AWS_SECRET", "secretKey", "username", "color", "x",
    ]
    static let separators = [" = ", ": ", "=", ":", " "]
    static let quotes = ["\"", "'", "`"]
    // Assembled at run time so this file holds no credential-shaped literal.
    static let values = [
        "Xk9" + "mQ2vL7pR4wN8zT", "s3cr3t" + "-V4lue-9x7Q", "${VAR}", "changeme", "short",
        "wJalrXUtnFEMI/K7MDENG/bPx" + "RfiCYzzzzzzzzzz", "ab12CD34ef56GH78ij90" + "KL12mn34OP56qr78ST90",
        "5f4dcc3b5aa765d6" + "1d8327deb882cf99", "AKIA" + "Q3EGZT7RKMXJ4HVN", "ghp_" + String(repeating: "aB3dE5gH7jK9", count: 3),
        "xoxb-" + "2837465019-9182736450-" + "QwErTyUiOpAsDfGhJkLzXcVb", "akia" + "Q3EGZT7RKMXJ4HVN",
    ]
    static let noise = ["", "x(", "aws ", "AWS secret ", "# ", "const ", "), ", "{", "token;"]

    private static func pick(_ list: [String], _ random: inout SeededRandom) -> String {
        list[Int.random(in: 0..<list.count, using: &random)]
    }

    @Test("a file's generic and AWS secret findings are those of its lines scanned alone")
    func fileEqualsItsLines() {
        var random = SeededRandom(state: 77)
        let detector = SecretsDetector()
        var found = 0
        for round in 0..<300 {
            var lines: [String] = []
            for _ in 0..<Int.random(in: 1...10, using: &random) {
                var line = Self.pick(Self.noise, &random)
                for _ in 0..<Int.random(in: 1...2, using: &random) {
                    let quote = Self.pick(Self.quotes, &random)
                    line +=
                        Self.pick(Self.names, &random) + Self.pick(Self.separators, &random) + quote
                        + Self.pick(Self.values, &random) + quote + Self.pick(Self.noise, &random)
                }
                lines.append(line)
            }
            var text = ""
            for line in lines { text += line + Self.pick(["\n", "\r\n", "\r"], &random) }
            let whole = detector.scan(file: "settings.py", bytes: Array(text.utf8)).map(\.location)
            var alone: [Location] = []
            for (index, line) in lines.enumerated() {
                alone += detector.scan(file: "settings.py", bytes: Array(line.utf8)).map { finding in
                    var location = finding.location
                    location.startLine = index + 1
                    location.endLine = index + 1
                    return location
                }
            }
            #expect(whole == alone, "round \(round): \(text.debugDescription)")
            let checked = lines.indices.filter { index in
                let line = Array(lines[index].utf8)[...]
                return !GenericAssignment.secretValues(in: line).isEmpty || !SecretsDetector.awsSecretAccessKeys(in: line).isEmpty
                    || SecretsDetector.tokens.contains { !$0.matches(in: line).isEmpty }
            }
            #expect(Set(whole.compactMap(\.startLine)) == Set(checked.map { $0 + 1 }), "round \(round): \(text.debugDescription)")
            found += whole.count
        }
        #expect(found > 300, "the generated lines hold secrets the checks find")
    }
}
