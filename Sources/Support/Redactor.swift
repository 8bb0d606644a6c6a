import FoundationEssentials

/// THE redactor (DESIGN §5b): every value that leaves the process (files written, HTTP bodies,
/// stdout and stderr) goes through one, so a credential quoted by attacker-controlled text (a
/// heal signal, a server's answer) is replaced by `<redacted>` wherever it would appear. It knows
/// the values of the environment's credential-looking variables, of every variable the operator
/// or the policy names (`github.tokenEnv`), and the provider credential shapes the secrets scan
/// knows (`CredentialShape.known`: AWS, GitHub, Slack, Google, Stripe, GitLab...). Values shorter
/// than `minimumLength` are never redacted: replacing `true` or `8080` everywhere would mangle
/// output without protecting anything.
public struct Redactor: Sendable, Hashable {
    /// What a secret is replaced by.
    public static let replacement = "<redacted>"
    /// Shorter values are not treated as secrets.
    public static let minimumLength = 8

    /// The process's own: its environment's credential-looking variables, read once.
    public static let process = Redactor(environment: ProcessEnvironment.all())

    /// The values replaced, longest first (so a secret that contains another is replaced whole).
    public let secrets: [String]
    /// Whether well-known token shapes are replaced too.
    public let shapes: Bool
    /// What is searched for: each secret as it is and in every encoding an output may give it
    /// (`EncodedForms`: JSON-escaped, percent-encoded, base64 at any alignment), longest first.
    /// Redaction runs on encoded bodies (a JSON file, a webhook's body, a request to the LLM),
    /// where a secret holding `"` or `\` no longer appears as itself.
    private let patterns: [[UInt8]]

    /// A redactor for `secrets` (short and empty values dropped) and, when `shapes`, token shapes.
    public init(secrets: [String] = [], shapes: Bool = true) {
        let kept = Set(secrets.filter { $0.count >= Self.minimumLength })
        self.secrets = kept.sorted { $0.utf8.count != $1.utf8.count ? $0.utf8.count > $1.utf8.count : $0 < $1 }
        self.shapes = shapes
        let forms = Set(kept.flatMap { [Array($0.utf8)] + EncodedForms.of(Array($0.utf8)) })
        patterns = forms.filter { $0.count >= Self.minimumLength }.sorted {
            $0.count != $1.count ? $0.count > $1.count : $0.lexicographicallyPrecedes($1)
        }
    }

    /// A redactor for the values of `environment`'s credential-looking variables (`isSecretName`)
    /// and of the variables `names` (whatever they are called).
    public init(environment: [String: String], naming names: [String] = [], shapes: Bool = true) {
        let named = Set(names)
        self.init(
            secrets: environment.compactMap { named.contains($0.key) || Self.isSecretName($0.key) ? $0.value : nil },
            shapes: shapes)
    }

    /// Whether a variable called `name` holds a credential by convention: `*TOKEN*`, `*SECRET*`,
    /// `*PASSWORD*`/`*PASSWD*`/`*PASSPHRASE*`, `*CREDENTIAL*`, `*_KEY`, `*_KEY_*`, `*APIKEY*`.
    public static func isSecretName(_ name: String) -> Bool {
        // Bytes, not Foundation's `contains`: every process checks its whole environment at its
        // first output, where Foundation's search cost a third of `sentinel --version`.
        let upper = name.utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
        return secretWords.contains { word in
            upper.count >= word.count && (0...(upper.count - word.count)).contains { upper[$0..<$0 + word.count].elementsEqual(word) }
        } || upper.suffix(4).elementsEqual("_KEY".utf8) || upper.elementsEqual("KEY".utf8)
    }

    private static let secretWords = [
        "TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "APIKEY", "_KEY_", "PRIVATE_KEY",
    ]
    .map { Array($0.utf8) }

    /// Whether `text` holds a secret this redactor would replace.
    public func finds(in text: String) -> Bool {
        let bytes = Array(text.utf8)
        return patterns.contains { !ByteSearch.occurrences(of: $0, in: bytes[...]).isEmpty }
            || (shapes && !CredentialShape.ranges(in: bytes).isEmpty)
    }

    /// `text` with every secret replaced by `<redacted>`.
    public func redact(_ text: String) -> String {
        guard !patterns.isEmpty || shapes else { return text }
        var result = patterns.reduce(text) { text, pattern in
            String(decoding: ByteSearch.replacing(pattern, with: Array(Self.replacement.utf8), in: Array(text.utf8)), as: UTF8.self)
        }
        if shapes {
            let bytes = Array(result.utf8)
            let ranges = CredentialShape.ranges(in: bytes)
            if !ranges.isEmpty { result = String(decoding: Self.replacing(ranges, in: bytes), as: UTF8.self) }
        }
        return result
    }

    /// `bytes` (UTF-8 text) with every secret replaced; unchanged bytes when there is none.
    public func redact(_ bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        guard finds(in: text) else { return bytes }
        return Array(redact(text).utf8)
    }

    /// `data` (UTF-8 text) with every secret replaced.
    public func redact(_ data: Data) -> Data { Data(redact(Array(data))) }

    private static func replacing(_ ranges: [Range<Int>], in bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var cursor = 0
        for range in ranges {
            result += bytes[cursor..<range.lowerBound]
            result += Array(replacement.utf8)
            cursor = range.upperBound
        }
        result += bytes[cursor...]
        return result
    }
}
