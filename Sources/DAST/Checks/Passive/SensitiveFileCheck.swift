import Foundation
import Support
import Web

/// Files that should never be served: version-control metadata, environment files, backups
/// and dumps. Each well-known path is fetched once; a finding needs the file's own signature
/// in the answer (not just a 200), so a site that answers every path with its home page is not
/// reported.
public struct SensitiveFileCheck: ProbeCheck {
    /// One well-known file and what its content looks like.
    struct Candidate: Sendable {
        let path: String
        let rule: WebRule
        let matches: @Sendable (WebResponse) -> Bool
    }

    static let git = WebRule(
        id: "exposed-git", name: "Git repository exposed", severity: .high, cwe: [527, 538],
        help: "Do not deploy the .git directory, or deny every path under /.git/ in the web server.")
    static let environment = WebRule(
        id: "exposed-env", name: "Environment file exposed", severity: .high, cwe: [538, 200],
        help: "Keep .env files out of the web root and deny dot-files in the web server; rotate the secrets it held.")
    static let backup = WebRule(
        id: "exposed-backup", name: "Backup or database dump exposed", severity: .high, cwe: [530, 538],
        help: "Remove backups and dumps from the web root; keep them where the web server cannot serve them.")

    static let candidates: [Candidate] = [
        Candidate(path: "/.git/HEAD", rule: git) { $0.text.hasPrefix("ref: refs/") || isHexCommit($0.text) },
        Candidate(path: "/.git/config", rule: git) { $0.text.contains("[core]") },
        Candidate(path: "/.svn/entries", rule: git) { $0.text.hasPrefix("12\n") || $0.text.contains("svn:") },
        Candidate(path: "/.hg/hgrc", rule: git) { $0.text.contains("[paths]") },
        Candidate(path: "/.env", rule: environment) { looksLikeEnvironment($0.text) },
        Candidate(path: "/.env.local", rule: environment) { looksLikeEnvironment($0.text) },
        Candidate(path: "/.env.production", rule: environment) { looksLikeEnvironment($0.text) },
        Candidate(path: "/backup.zip", rule: backup) { $0.body.starts(with: [0x50, 0x4B, 0x03, 0x04]) },
        Candidate(path: "/backup.tar.gz", rule: backup) { $0.body.starts(with: [0x1F, 0x8B]) },
        Candidate(path: "/site.zip", rule: backup) { $0.body.starts(with: [0x50, 0x4B, 0x03, 0x04]) },
        Candidate(path: "/db.sql", rule: backup) { looksLikeSQL($0.text) },
        Candidate(path: "/db.sql.bak", rule: backup) { looksLikeSQL($0.text) },
        Candidate(path: "/dump.sql", rule: backup) { looksLikeSQL($0.text) },
        Candidate(path: "/backup.sql", rule: backup) { looksLikeSQL($0.text) },
        Candidate(path: "/database.sql", rule: backup) { looksLikeSQL($0.text) },
        Candidate(path: "/config.php.bak", rule: backup) { $0.text.contains("<?php") },
        Candidate(path: "/wp-config.php.bak", rule: backup) { $0.text.contains("DB_PASSWORD") },
        Candidate(path: "/.DS_Store", rule: backup) { $0.body.starts(with: [0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31]) },
    ]

    /// The rules it reports.
    public var rules: [WebRule] { [Self.git, Self.environment, Self.backup] }

    /// A check.
    public init() {}

    /// Fetches each well-known path at the origin's root.
    public func probe(_ site: Crawler.Result, start: WebURL, client: WebClient, sink: FindingSink) {
        ParallelFor.run(Self.candidates.count, threads: 4) { index in
            let candidate = Self.candidates[index]
            guard let url = start.resolving(candidate.path) else { return }
            let request = WebRequest(url: url)
            guard let response = try? client.send(request), response.status == 200, candidate.matches(response) else {
                return
            }
            sink.report(
                candidate.rule.finding(
                    url: url.string, method: "GET", message: "\(candidate.path) is served to anyone",
                    evidence: "Request: GET \(url)\nResponse: HTTP 200\n" + String(response.text.prefix(200))))
        }
    }

    static func isHexCommit(_ text: String) -> Bool {
        let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return line.count == 40 && line.allSatisfy(\.isHexDigit)
    }

    /// At least two `NAME=value` lines and no HTML.
    static func looksLikeEnvironment(_ text: String) -> Bool {
        guard !text.contains("<") else { return false }
        let assignments = text.split(separator: "\n").filter { line in
            guard let equals = line.firstIndex(of: "="), equals > line.startIndex else { return false }
            return line[..<equals].allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" }
        }
        return assignments.count >= 2
    }

    static func looksLikeSQL(_ text: String) -> Bool {
        let head = text.prefix(65536).uppercased()
        return !head.contains("<HTML") && (head.contains("CREATE TABLE") || head.contains("INSERT INTO"))
    }
}
