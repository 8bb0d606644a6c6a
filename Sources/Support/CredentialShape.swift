/// A token with a fixed prefix followed by a run of allowed bytes, like `AKIA` + 16
/// uppercase alphanumerics: the shape of most provider-issued credentials. Matching works
/// on bytes with no regular expressions, so scanning large trees stays fast. One table
/// (`known`) serves the secrets scan and the redactor of everything that leaves the process.
public struct CredentialShape: Sendable {
    /// The secrets rule that reports this shape (`secrets.aws-access-key-id`).
    public let ruleID: String
    /// What the shape is, for messages (`AWS access key ID`).
    public let title: String
    /// The literal prefixes, as bytes.
    public let prefixes: [[UInt8]]
    /// The bytes that may follow a prefix.
    public let body: ByteSet
    /// The fewest body bytes that make a token.
    public let minimumBody: Int
    /// The most body bytes (a longer run is something else).
    public let maximumBody: Int
    /// Whether the byte before the token must not belong to `body` (a word boundary).
    public let boundaryBefore: Bool

    /// A shape reported as `ruleID`, named `title`: one of `prefixes`, then `length` bytes of `body`.
    public init(
        _ ruleID: String, _ title: String, prefixes: [String], body: ByteSet, length: ClosedRange<Int>,
        boundaryBefore: Bool = true
    ) {
        self.ruleID = ruleID
        self.title = title
        self.prefixes = prefixes.map { Array($0.utf8) }
        self.body = body
        self.minimumBody = length.lowerBound
        self.maximumBody = length.upperBound
        self.boundaryBefore = boundaryBefore
    }

    /// Byte ranges of every match in `line`. The run of body bytes after the prefix must
    /// have an allowed length: a longer run is part of something else, not this token.
    /// Linear in the line: a prefix found inside the body run an earlier one measured
    /// (`xoxb-xoxb-…`) ends where that run ends, so no byte is read twice.
    public func matches(in line: ArraySlice<UInt8>) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for prefix in prefixes {
            var runEnd = line.startIndex
            for index in ByteSearch.occurrences(of: prefix, in: line) {
                if boundaryBefore, index > line.startIndex, ByteSet.word.contains(line[index - 1]) { continue }
                let bodyStart = index + prefix.count
                // Occurrences come in order, so a body starting before `runEnd` starts inside it.
                if bodyStart >= runEnd {
                    runEnd = bodyStart
                    while runEnd < line.endIndex, body.contains(line[runEnd]) { runEnd += 1 }
                }
                let length = runEnd - bodyStart
                guard length >= minimumBody && length <= maximumBody else { continue }
                result.append(index..<runEnd)
            }
        }
        return ByteRanges.disjoint(result)
    }
}

extension CredentialShape {
    /// The byte ranges of every known credential in `bytes`, in order, not overlapping: what the
    /// redactor replaces in everything that leaves the process.
    public static func ranges(in bytes: [UInt8]) -> [Range<Int>] {
        ByteRanges.disjoint(known.flatMap { $0.matches(in: bytes[...]) })
    }

    /// The provider credentials Sentinel knows by shape.
    public static let known: [CredentialShape] = [
        CredentialShape(
            "secrets.aws-access-key-id", "AWS access key ID", prefixes: ["AKIA", "ASIA", "ABIA", "ACCA", "A3T"],
            body: .upperAlphanumeric, length: 16...17),
        CredentialShape(
            "secrets.github-token", "GitHub token", prefixes: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
            body: .alphanumeric, length: 36...255),
        CredentialShape(
            "secrets.github-token", "GitHub fine-grained token", prefixes: ["github_pat_"], body: .word,
            length: 60...255),
        CredentialShape(
            "secrets.slack-token", "Slack token", prefixes: ["xoxb-", "xoxa-", "xoxp-", "xoxr-", "xoxs-"],
            body: ByteSet(
                [
                    UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"),
                ], "-"), length: 20...255),
        CredentialShape(
            "secrets.slack-webhook", "Slack webhook URL", prefixes: ["https://hooks.slack.com/services/T"],
            body: ByteSet(
                [
                    UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"),
                ], "/"), length: 20...200,
            boundaryBefore: false),
        CredentialShape("secrets.google-api-key", "Google API key", prefixes: ["AIza"], body: .urlSafe, length: 35...35),
        CredentialShape(
            "secrets.stripe-live-key", "Stripe live secret key", prefixes: ["sk_live_", "rk_live_"],
            body: .alphanumeric, length: 24...99),
        CredentialShape(
            "secrets.gitlab-token", "GitLab personal access token", prefixes: ["glpat-"], body: .urlSafe,
            length: 20...20),
        CredentialShape("secrets.npm-token", "npm access token", prefixes: ["npm_"], body: .alphanumeric, length: 36...36),
        CredentialShape(
            "secrets.pypi-token", "PyPI upload token", prefixes: ["pypi-AgEIcHlwaS5vcmc"], body: .urlSafe,
            length: 50...300),
    ]
}

/// A set of bytes, as a 256-bit bitmap.
public struct ByteSet: Sendable {
    private var bits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// The bytes of `ranges` and of `extra`.
    public init(_ ranges: [ClosedRange<UInt8>] = [], _ extra: String = "") {
        for range in ranges { for byte in range { insert(byte) } }
        for byte in extra.utf8 { insert(byte) }
    }

    /// Adds `byte`.
    public mutating func insert(_ byte: UInt8) {
        let bit = UInt64(1) << UInt64(byte & 63)
        switch byte >> 6 {
        case 0: bits.0 |= bit
        case 1: bits.1 |= bit
        case 2: bits.2 |= bit
        default: bits.3 |= bit
        }
    }

    /// Whether `byte` is in the set.
    public func contains(_ byte: UInt8) -> Bool {
        let bit = UInt64(1) << UInt64(byte & 63)
        switch byte >> 6 {
        case 0: return bits.0 & bit != 0
        case 1: return bits.1 & bit != 0
        case 2: return bits.2 & bit != 0
        default: return bits.3 & bit != 0
        }
    }

    /// `[A-Z]`
    public static let upper = ByteSet([UInt8(ascii: "A")...UInt8(ascii: "Z")])
    /// `[a-z]`
    public static let lower = ByteSet([UInt8(ascii: "a")...UInt8(ascii: "z")])
    /// `[0-9]`
    public static let digits = ByteSet([UInt8(ascii: "0")...UInt8(ascii: "9")])
    /// `[A-Z0-9]`
    public static let upperAlphanumeric = ByteSet([UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9")])
    /// `[A-Za-z0-9]`
    public static let alphanumeric = ByteSet([
        UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"),
    ])
    /// `[A-Za-z0-9_]`
    public static let word = ByteSet(
        [
            UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
        ], "_")
    /// `[A-Za-z0-9+/=]`
    public static let base64 = ByteSet(
        [
            UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
        ], "+/=")
    /// `[A-Za-z0-9_-]`
    public static let urlSafe = ByteSet(
        [
            UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
        ], "-_")
}
