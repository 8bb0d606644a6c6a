import Findings
import Foundation
import SourcePositions
import Support
import PythonSyntax

/// Finds credentials in any text file: provider tokens by their exact shapes, private key
/// blocks, and `password = "..."`-style assignments whose value looks random. Every secret
/// is redacted in the finding's message, snippet and evidence.
public struct SecretsDetector: Sendable {
    /// Makes a detector with the built-in token patterns.
    public init() {}

    static var tokens: [CredentialShape] { CredentialShape.known }

    static let privateKeyMarker = Array("-----BEGIN ".utf8)

    /// Snippets of lines longer than this (minified code, binary files) quote only the text
    /// around their secret, so what a file's findings repeat stays linear in the file.
    static let maxSnippetBytes = 400
    /// How much of a long line a snippet keeps either side of its (redacted) secret.
    static let snippetContext = 120

    /// Findings for one file's bytes. Binary-looking files are scanned too, as gitleaks and
    /// trufflehog do: a NUL byte must not hide the key committed beside it. Token prefixes are
    /// searched over the whole file at once (vectorised `memchr`), so the cost is per
    /// candidate, not per line; the generic assignment check runs per line behind a cheap
    /// prefilter. Every step is linear in the line it looks at.
    public func scan(file: String, bytes: [UInt8]) -> [Finding] {
        let kind = SecretFileKind.of(file)
        let placed = Self.placed(scanAsWritten(file: file, bytes: bytes, kind: kind), kind: kind)
        return Self.inBrowserCode(Self.inDocstrings(placed, file: file, bytes: bytes), file: file)
    }

    /// A fixture-prone finding inside a Python docstring is an example for the reader: low
    /// severity and confidence, as in documentation (issue 55).
    static func inDocstrings(_ findings: [Finding], file: String, bytes: [UInt8]) -> [Finding] {
        guard file.hasSuffix(".py") || file.hasSuffix(".pyw") || file.hasSuffix(".pyi"),
            findings.contains(where: { fixtureProneRules.contains($0.ruleId) && $0.severity > .low })
        else { return findings }
        let docstrings = PythonDocstrings.lines(in: bytes)
        return findings.map { finding in
            guard fixtureProneRules.contains(finding.ruleId), finding.severity > .low,
                let line = finding.location.startLine, docstrings.contains(line)
            else { return finding }
            return lowered(finding, because: "in a docstring: likely an example")
        }
    }

    /// Fixture-prone findings (a private key, a password) in tests, CI files, example
    /// configuration and documentation are reported at low severity, not dropped: a reviewer
    /// still sees them, the gate does not fail on a throw-away (issue 55). An issued token keeps
    /// its severity anywhere.
    static func placed(_ findings: [Finding], kind: SecretFileKind) -> [Finding] {
        findings.map { fixtureProneRules.contains($0.ruleId) ? placed($0, kind: kind) : $0 }
    }

    /// A password or token assigned in a browser component (`.jsx`, `.tsx`, `.vue`, `.svelte`)
    /// is sent to every visitor: what such code holds are publishable client identifiers (a chat
    /// widget's website token, a search-only key), so a generic match there is low severity and
    /// confidence, not dropped. A vendor's issued-key format is reported wherever it is.
    static func inBrowserCode(_ findings: [Finding], file: String) -> [Finding] {
        guard browserComponentExtensions.contains(where: { file.lowercased().hasSuffix($0) }) else { return findings }
        return findings.map { finding in
            guard finding.ruleId == "secrets.generic-password", finding.severity > .low || finding.confidence > .low else {
                return finding
            }
            return lowered(finding, because: "in a browser component: every visitor receives it, likely a public client identifier")
        }
    }

    /// Extensions of files that hold only code the browser runs.
    static let browserComponentExtensions = [".jsx", ".tsx", ".vue", ".svelte"]

    /// `finding` placed as a fixture-prone finding of a `kind` file is: low severity and
    /// confidence in a test, CI, example or documentation file; as it was elsewhere.
    package static func placed(_ finding: Finding, kind: SecretFileKind) -> Finding {
        guard let place = kind.place else { return finding }
        guard finding.severity > .low || finding.confidence > .low else { return finding }
        return lowered(finding, because: "\(place): likely a fixture or an example")
    }

    /// A fixture-prone `finding` in a file the default ignores leave out of code analysis (test
    /// code, dependencies, build output, generated code): reported, never dropped (tests are where keys leak),
    /// at low severity and confidence like a fixture anywhere; an issued credential is not
    /// fixture-prone and keeps its own.
    package static func leftOutByDefaultIgnores(_ finding: Finding) -> Finding {
        guard fixtureProneRules.contains(finding.ruleId), finding.severity > .low || finding.confidence > .low else { return finding }
        return lowered(finding, because: "in test code, a dependency, build output or generated code: likely a fixture")
    }

    /// `finding` at low severity and confidence, its message saying why.
    private static func lowered(_ finding: Finding, because reason: String) -> Finding {
        var copy = finding
        copy.severity = .low
        copy.confidence = .low
        copy.message += " (\(reason), so low severity)"
        return copy
    }

    private func scanAsWritten(file: String, bytes: [UInt8], kind: SecretFileKind) -> [Finding] {
        let findings = scan(bytes: bytes, file: file, kind: kind)
        guard let (encoding, decoded) = Self.pythonDecoded(bytes, file: file) else { return findings }
        // A Python file is also read as CPython decodes it (its `coding:` cookie), with the one
        // decoder the code analysis uses: a key written as UTF-7 base64 runs or as
        // `unicode_escape` escapes is a plain key to Python.
        let seen = Set(findings.map { "\($0.ruleId)\u{0}\($0.location.startLine ?? 0)\u{0}\($0.evidence ?? "")" })
        return findings
            + scan(bytes: decoded, file: file, kind: kind).compactMap { finding in
                guard !seen.contains("\(finding.ruleId)\u{0}\(finding.location.startLine ?? 0)\u{0}\(finding.evidence ?? "")")
                else { return nil }
                var copy = finding
                copy.message += " (in the file as Python decodes it: \(encoding))"
                copy.facts.code.sourceEncoding = encoding
                return copy
            }
    }

    /// A Python file whose declared encoding makes ASCII read as other characters: the encoding's
    /// name and the text Python runs; nil for any other file (the cookie must be on line 1 or 2).
    static func pythonDecoded(_ bytes: [UInt8], file: String) -> (String, [UInt8])? {
        guard file.hasSuffix(".py") || file.hasSuffix(".pyw") || file.hasSuffix(".pyi") else { return nil }
        let head = bytes.prefix(1024).split(separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false).prefix(2)
        guard head.contains(where: { ByteSearch.occurrences(of: Array("coding".utf8), in: $0).first != nil }),
            let source = try? PythonSource(bytes: bytes, fileName: file), source.rewritesASCII,
            let encoding = source.declaredEncoding
        else { return nil }
        return (encoding, Array(source.text.utf8))
    }

    private func scan(bytes: [UInt8], file: String, kind: SecretFileKind) -> [Finding] {
        let all = bytes[...]
        let lines = LineIndex(bytes)
        // Lines with a token's prefix or a private key's header, and lines with a keyword of the
        // generic or AWS secret key check (case aside): the only lines on which anything can be
        // found, each found in one pass over the file (``LiteralLines``) rather than by a lowered
        // copy of every line and a search per keyword in each (a third of the detector's time).
        let tokenLines = Self.tokenLines.lines(of: lines)
        let generic = kind != .lockfile && kind != .translations
        let keywordLines = generic ? Self.keywordLines.lines(of: lines) : []
        var findings: [Finding] = []
        for number in tokenLines.union(keywordLines).sorted() {
            let text = lines.bytes(ofLine: number)
            guard !text.isEmpty else { continue }
            findings += scan(line: text, number: number, file: file, tokens: tokenLines.contains(number), in: all, generic: generic)
        }
        return findings
    }

    /// The lines on which the generic and the AWS secret key checks can find anything: both
    /// need one of their keywords on the line, case aside.
    private static let keywordLines = LiteralLines(GenericAssignment.keywords + [awsKeyword], ignoringCase: true)

    /// The lines that may hold a provider token or a private key: those with a token's prefix
    /// or a key's header, case as written.
    private static let tokenLines = LiteralLines(tokens.flatMap(\.prefixes) + [privateKeyMarker], ignoringCase: false)

    private static let awsKeyword = Array("aws".utf8)

    /// `all`: the whole file (a private key's body follows its header on later lines).
    private func scan(
        line: ArraySlice<UInt8>, number: Int, file: String, tokens: Bool, in all: ArraySlice<UInt8>, generic: Bool
    ) -> [Finding] {
        var hits: [(rule: String, title: String, range: Range<Int>, severity: Severity, confidence: Confidence)] = []
        if tokens {
            for pattern in Self.tokens {
                for range in pattern.matches(in: line) where !Self.isDocumentedExample(line[range]) {
                    hits.append((pattern.ruleID, pattern.title, range, .high, .high))
                }
            }
            if let range = privateKeyHeader(in: line), Self.keyBodyFollows(range.upperBound, in: all) {
                hits.append(("secrets.private-key", "private key", range, .critical, .high))
            }
        }
        // A lockfile's names are packages and a message catalogue's values are UI text.
        if generic {
            for range in ByteRanges.sparing(Self.awsSecretAccessKeys(in: line), hits.map(\.range)) {
                hits.append(("secrets.aws-secret-access-key", "AWS secret access key", range, .high, .high))
            }
        }
        let assignments = generic ? GenericAssignment.secretValues(in: line) : []
        for range in ByteRanges.sparing(assignments, hits.map(\.range)) {
            hits.append(("secrets.generic-password", "hard-coded secret", range, .medium, .medium))
        }
        guard !hits.isEmpty else { return [] }
        let redacted = Redaction.redacted(line: line, ranges: hits.map(\.range))
        return zip(hits, redacted.positions).map { hit, position in
            let secret = String(decoding: line[hit.range], as: UTF8.self)
            let column = line[line.startIndex..<hit.range.lowerBound].count + 1
            let location = Location(
                file: file, startLine: number, startColumn: column, endLine: number,
                endColumn: column + hit.range.count)
            return Finding(
                ruleId: hit.rule, tool: ToolName.secrets, severity: hit.severity, confidence: hit.confidence,
                message: "\(hit.title) committed in source: \(Redaction.redact(secret))",
                location: location, cwe: [798], evidence: Redaction.redact(secret),
                snippet: Self.snippet(redacted.bytes, around: position))
        }
    }

    /// The redacted line, or on a long line the part around `position` (where the secret's
    /// redacted form is), with control bytes shown as `.`: binary files have them.
    static func snippet(_ line: [UInt8], around position: Range<Int>) -> String {
        var from = 0
        var to = line.count
        if line.count > maxSnippetBytes {
            from = max(0, position.lowerBound - snippetContext)
            to = min(line.count, position.upperBound + snippetContext)
            // Cut between characters, not inside one.
            while from > 0, line[from] & 0xC0 == 0x80 { from -= 1 }
            while to < line.count, line[to] & 0xC0 == 0x80 { to += 1 }
        }
        let shown = line[from..<to].map { $0 < 0x20 && $0 != 0x09 || $0 == 0x7F ? UInt8(ascii: ".") : $0 }
        let text = String(decoding: shown, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return (from > 0 ? "…" : "") + text + (to < line.count ? "…" : "")
    }

    /// `text` with every secret this detector recognises redacted: applied to every finding
    /// from every tool, so a snippet quoting a credential never reaches a report.
    public static func redactSecrets(in text: String) -> String {
        let bytes = Array(text.utf8)
        guard bytes.count >= 8 else { return text }
        var output: [String] = []
        var changed = false
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            var ranges = tokens.flatMap { $0.matches(in: line) }
            ranges += ByteRanges.sparing(awsSecretAccessKeys(in: line), ranges)
            ranges += ByteRanges.sparing(GenericAssignment.secretValues(in: line), ranges)
            if ranges.isEmpty {
                output.append(String(decoding: line, as: UTF8.self))
            } else {
                changed = true
                output.append(Redaction.redact(line: line, ranges: ranges))
            }
        }
        return changed ? output.joined(separator: "\n") : text
    }

    /// AWS secret access keys in `line` (offsets of the slice): a quoted run of exactly 40 base64
    /// characters (no `=`) with `aws` and `secret` in the 64 bytes before its quote
    /// (`AWS_SECRET_ACCESS_KEY = "…"`, `setenv("AWS_SECRET_ACCESS_KEY", "…")`,
    /// `"aws_secret_access_key": "…"`), as Semgrep's and gitleaks' rules find it. It has no prefix
    /// of its own, so its name is its shape: an issued credential, reported wherever it is
    /// committed, `conftest.py` included (hostile inputs rounds 2–3: as a "password" there it was
    /// dropped). Linear: every step moves forward.
    static func awsSecretAccessKeys(in line: ArraySlice<UInt8>) -> [Range<Int>] {
        guard line.count >= 42 else { return [] }
        var found: [Range<Int>] = []
        var i = line.startIndex
        while i < line.endIndex {
            let quote = line[i]
            guard GenericAssignment.quoteBytes.contains(quote) else {
                i += 1
                continue
            }
            var end = i + 1
            while end < line.endIndex && isAWSKeyByte(line[end]) { end += 1 }
            if end - i - 1 == 40, end < line.endIndex, line[end] == quote, !isDocumentedExample(line[(i + 1)..<end]) {
                let before = line[max(line.startIndex, i - 64)..<i].map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
                if ByteSearch.occurrences(of: awsKeyword, in: before[...]).first != nil,
                    ByteSearch.occurrences(of: Array("secret".utf8), in: before[...]).first != nil
                {
                    found.append((i + 1)..<end)
                }
            }
            i = max(end, i + 1)
        }
        return found
    }

    private static func isAWSKeyByte(_ byte: UInt8) -> Bool {
        GenericAssignment.letters.contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "+")
    }

    /// A vendor's documented example credential: AWS's documentation keys end in `EXAMPLE`
    /// (`AKIAIOSFODNN7EXAMPLE`, `…/bPxRfiCYEXAMPLEKEY`), and no issued key spells the word.
    static func isDocumentedExample(_ token: ArraySlice<UInt8>) -> Bool {
        ByteSearch.occurrences(of: Array("EXAMPLE".utf8), in: token).first != nil
    }

    /// The fewest base64 characters a private key's body has: an Ed25519 key in PKCS#8, the
    /// smallest in use, takes 64. A header with less after it (`-----BEGIN RSA PRIVATE KEY-----...`
    /// in a docstring, a form's placeholder, a validation pattern, a test's truncated `MIIE…`) is a
    /// mention of a key, not a key (issue 55: 10 of 10 such gate findings on real code were false).
    static let minimumKeyBody = 64

    /// Whether a key's body follows its header ending at `end`: at least `minimumKeyBody` base64
    /// characters before the `-----END` line, in any of the ways keys are written into files:
    /// PEM lines, PEM headers (`Proc-Type: …`), `\n` escapes in one string, quoted pieces joined
    /// by `+`. Any other character ends the body. Looks at most 16 KiB ahead (linear).
    static func keyBodyFollows(_ end: Int, in all: ArraySlice<UInt8>) -> Bool {
        var body = 0
        var distinct = Set<UInt8>()
        var index = end
        let limit = min(all.endIndex, end + 16_384)
        var lineStart = false
        while index < limit, body < minimumKeyBody || distinct.count < 16 {
            let byte = all[index]
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
                if lineStart, let newline = all[index..<limit].firstIndex(of: 10),
                    all[index..<newline].contains(UInt8(ascii: ":"))
                {
                    index = newline  // a PEM header line (`Proc-Type: 4,ENCRYPTED`)
                    continue
                }
                body += 1
                distinct.insert(byte)
                lineStart = false
            case UInt8(ascii: "\\") where index + 1 < limit && [UInt8(ascii: "n"), UInt8(ascii: "r")].contains(all[index + 1]):
                index += 1
            case 10, 13:
                lineStart = true
            case UInt8(ascii: " "), 9, UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"):
                break
            default:
                return false
            }
            index += 1
        }
        return body >= minimumKeyBody && distinct.count >= 16
    }

    /// `-----BEGIN [RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP ]PRIVATE KEY[ BLOCK]-----`.
    private func privateKeyHeader(in line: ArraySlice<UInt8>) -> Range<Int>? {
        guard let start = ByteSearch.occurrences(of: Self.privateKeyMarker, in: line).first else { return nil }
        let rest = String(decoding: line[start...], as: UTF8.self)
        guard let close = rest.dropFirst(11).range(of: "-----") else { return nil }
        let label = rest.dropFirst(11)[..<close.lowerBound]
        guard label.hasSuffix("PRIVATE KEY") || label.hasSuffix("PRIVATE KEY BLOCK") else { return nil }
        return start..<(start + 11 + label.utf8.count + 5)
    }

    /// Rules whose matches are, by convention, fixtures in test code and third-party trees: a
    /// self-signed test key, an example password. Issued credentials with a provider's shape
    /// (AWS, GitHub, Slack...) are not among them: one in `conftest.py` works all the same.
    public static let fixtureProneRules: Set<String> = ["secrets.private-key", "secrets.generic-password"]

    /// Rule descriptors for SARIF.
    public static var descriptors: [RuleDescriptor] {
        var seen = Set<String>()
        var rules: [RuleDescriptor] = []
        let all =
            tokens.map { ($0.ruleID, $0.title, Severity.high) }
            + [
                ("secrets.private-key", "private key", .critical), ("secrets.aws-secret-access-key", "AWS secret access key", .high),
                ("secrets.generic-password", "hard-coded secret", .medium),
            ]
        for (id, title, severity) in all where seen.insert(id).inserted {
            rules.append(
                RuleDescriptor(
                    id: id, tool: ToolName.secrets, name: id, shortDescription: "\(title) in source",
                    fullDescription:
                        "A \(title) is committed in the repository. Revoke it, rotate it, and load it from the environment or a secret store instead.",
                    defaultSeverity: severity, cwe: [798], tags: ["security", "secrets"]))
        }
        return rules
    }
}
