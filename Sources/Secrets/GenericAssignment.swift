import Support

/// `password = "s3cr3t-V4lue"`, `"api_key": "..."`, `DB_PASSWORD: '...'`: a name that says
/// secret, an assignment, and a quoted literal that looks random (long enough, high entropy,
/// not a placeholder).
enum GenericAssignment {
    static let keywords = [
        "password", "passwd", "pwd", "secret", "api_key", "apikey", "api-key", "access_key",
        "auth_token", "access_token", "private_key", "client_secret", "token",
    ].map { Array($0.utf8) }
    static let assignmentBytes: [UInt8] = [UInt8(ascii: "="), UInt8(ascii: ":")]
    static let quoteBytes: [UInt8] = [UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`")]
    static let letters = ByteSet([UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z")])
    static let hexDigits = ByteSet([
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"),
    ])
    /// The longest value taken for a secret.
    static let maxValueBytes = 200
    static let placeholders = [
        "${", "{{", "<", "%(", "xxx", "changeme", "change_me", "example", "dummy", "placeholder",
        "your_", "your-", "****", "redacted", "todo", "fixme", "secret", "password",
        // A value cut short for the reader (`"eyJhbGciOi..."` in an API schema's example).
        "...", "…",
    ]

    /// Byte ranges of the secret values (inside the quotes).
    static func secretValues(in line: ArraySlice<UInt8>) -> [Range<Int>] {
        // Most lines have no assignment with a quoted value: skip them before any work.
        guard line.count >= 12, ByteSearch.containsAny(assignmentBytes, in: line),
            ByteSearch.containsAny(quoteBytes, in: line)
        else { return [] }
        let lower = line.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
        var result: [Range<Int>] = []
        for keyword in keywords {
            var identifierEnd = 0
            var described = false
            for start in ByteSearch.occurrences(of: keyword, in: lower[...]) {
                let keywordEnd = start + keyword.count
                // Occurrences come in order: one inside the identifier an earlier one measured
                // (`tokentoken…`) ends where it ends, so no byte is read twice.
                if keywordEnd >= identifierEnd {
                    identifierEnd = endOfIdentifier(from: keywordEnd, in: lower)
                    // `token_url`, `PASSWORD_HASH_ALGORITHM`, `SECRET_KEY_CHARSET`: names about a
                    // secret. The name's tail decides, read once per name.
                    described = describesASecret(lower[max(keywordEnd, identifierEnd - 32)..<identifierEnd])
                }
                if described { continue }
                if let value = valueAfter(identifierEnd: identifierEnd, in: lower), isSecretLike(line, value),
                    !isHash(line, value, keyword: keyword)
                {
                    result.append((line.startIndex + value.lowerBound)..<(line.startIndex + value.upperBound))
                }
            }
        }
        return ByteRanges.disjoint(result)
    }

    /// The words that, ending a name with a secret's keyword in it, make it a name about the
    /// secret (where it is fetched, how it is hashed, what it may contain), not the secret.
    static let describingSuffixes = [
        "url", "uri", "endpoint", "host", "domain", "path", "file", "dir", "algorithm", "algo", "hasher", "strategy",
        "charset", "chars", "characters", "alphabet", "field", "fields", "name", "names", "type", "header", "length", "len",
        "prefix", "suffix", "regex", "pattern", "policy", "format", "mode", "label", "placeholder", "manager", "provider",
        "backend", "method", "methods", "expiry", "expires", "lifetime", "ttl", "timeout", "count", "hint", "text",
        "message", "msg", "title", "error", "validator", "class", "scope", "scopes", "key_name", "env", "var", "variable",
        "id", "version", "location", "store", "storage", "service", "param", "parameter",
    ].map { Array($0.utf8) }

    /// Whether the rest of a name after its secret keyword (`_hash_algorithm` of
    /// `password_hash_algorithm`, `url` of `tokenURL`) ends in a describing word.
    private static func describesASecret(_ rest: ArraySlice<UInt8>) -> Bool {
        let letters = rest.filter { $0 != UInt8(ascii: "_") && $0 != UInt8(ascii: "-") }
        guard !letters.isEmpty else { return false }
        return describingSuffixes.contains { suffix in
            let word = suffix.filter { $0 != UInt8(ascii: "_") }
            return letters.count >= word.count && Array(letters.suffix(word.count)) == word
        }
    }

    /// A password's hash is not the password: `password = "5f4dcc3b…"` (hex of an MD5, SHA-1,
    /// SHA-2 digest), `$2b$…` (bcrypt), `$argon2id$…`, `pbkdf2_sha256$…` (Django); nor is a UUID
    /// an identifier. Only for password keywords: an API key or token may well be hex or a UUID.
    private static func isHash(_ line: ArraySlice<UInt8>, _ value: Range<Int>, keyword: [UInt8]) -> Bool {
        guard [Array("password".utf8), Array("passwd".utf8), Array("pwd".utf8)].contains(keyword) else { return false }
        let bytes = Array(line[(line.startIndex + value.lowerBound)..<(line.startIndex + value.upperBound)])
        let text = String(decoding: bytes, as: UTF8.self)
        if [32, 40, 56, 64, 96, 128].contains(bytes.count), bytes.allSatisfy({ hexDigits.contains($0) }) { return true }
        // A UUID under a password name identifies something (a passkey provider's AAGUID in an
        // enum named `OnePassword`, a record's id): passwords are not written as UUIDs.
        if isUUID(bytes) { return true }
        return [
            "$2a$", "$2b$", "$2y$", "$argon2", "$scrypt$", "$pbkdf2", "pbkdf2_sha", "bcrypt$", "argon2$", "sha1$", "md5$", "{ssha}",
            "{sha}",
        ]
        .contains { text.lowercased().hasPrefix($0) }
    }

    /// `8-4-4-4-12` hexadecimal digits.
    private static func isUUID(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 36 else { return false }
        return bytes.enumerated().allSatisfy { index, byte in
            [8, 13, 18, 23].contains(index) ? byte == UInt8(ascii: "-") : hexDigits.contains(byte)
        }
    }

    /// Where the identifier (word bytes and `-`) running from `index` ends.
    private static func endOfIdentifier(from index: Int, in bytes: [UInt8]) -> Int {
        var index = index
        while index < bytes.count, ByteSet.word.contains(bytes[index]) || bytes[index] == UInt8(ascii: "-") { index += 1 }
        return index
    }

    /// After the keyword's identifier: an optional closing quote, `=`/`:`/`:=`/`=>`, then a
    /// quoted literal. Returns the literal's content range (indices into `bytes`).
    private static func valueAfter(identifierEnd: Int, in bytes: [UInt8]) -> Range<Int>? {
        var index = identifierEnd
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") { index += 1 }
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: ":") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                index += 1
            } else if let typed = afterTypeAnnotation(from: index, in: bytes) {
                // TypeScript: `private apiKey: string = '…'`, `password?: string = "…"`.
                index = typed
            }
        } else if bytes[index] == UInt8(ascii: "=") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "=") { return nil }  // a comparison
            if index < bytes.count, bytes[index] == UInt8(ascii: ">") { index += 1 }
        } else {
            return nil
        }
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        // JavaScript's template literals are strings too; one that interpolates (`${…}`) is built, not written.
        guard index < bytes.count, [UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`")].contains(bytes[index]) else {
            return nil
        }
        let quote = bytes[index]
        let start = index + 1
        // A value longer than `maxValueBytes` is no secret: look no further for its end.
        let window = bytes[start..<min(bytes.count, start + maxValueBytes + 1)]
        guard let end = window.firstIndex(of: quote) else { return nil }
        if quote == UInt8(ascii: "`"), ByteSearch.occurrences(of: Array("${".utf8), in: bytes[start..<end]).first != nil {
            return nil
        }
        return start..<end
    }

    /// After `:` of `name: Type = value`: the index of the value when a type that is one
    /// identifier (a dotted name, `string`, `Buffer`) and then `=` (not `==`) follow; else nil.
    private static func afterTypeAnnotation(from start: Int, in bytes: [UInt8]) -> Int? {
        var index = start
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
        let typeStart = index
        while index < bytes.count,
            letters.contains(bytes[index]) || bytes[index] == UInt8(ascii: ".") || ByteSet.digits.contains(bytes[index])
        {
            index += 1
        }
        guard index > typeStart else { return nil }
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "="), index + 1 < bytes.count,
            bytes[index + 1] != UInt8(ascii: "="), bytes[index + 1] != UInt8(ascii: ">")
        else { return nil }
        return index + 1
    }

    /// Two or more lower-case words of letters and digits joined by `_`, each word short and
    /// holding a letter: how code names an action, a setting or an enum value.
    static func isSnakeCaseName(_ bytes: ArraySlice<UInt8>) -> Bool {
        let words = bytes.split(separator: UInt8(ascii: "_"), omittingEmptySubsequences: false)
        return words.count >= 2
            && words.allSatisfy { word in
                !word.isEmpty && word.count <= 12 && word.contains(where: ByteSet.lower.contains)
                    && word.allSatisfy { ByteSet.lower.contains($0) || ByteSet.digits.contains($0) }
            }
    }

    private static func isSecretLike(_ line: ArraySlice<UInt8>, _ value: Range<Int>) -> Bool {
        let bytes = line[(line.startIndex + value.lowerBound)..<(line.startIndex + value.upperBound)]
        guard bytes.count >= 8, bytes.count <= maxValueBytes, !bytes.contains(UInt8(ascii: " ")) else { return false }
        let text = String(decoding: bytes, as: UTF8.self).lowercased()
        if placeholders.contains(where: { text.contains($0) }) { return false }
        // A URL without credentials in it (`tokenURL: "https://…/token"`) is an address.
        if (text.hasPrefix("http://") || text.hasPrefix("https://") || text.hasPrefix("//")) && !text.contains("@") { return false }
        // Letters with `.`, `_`, `-` only: an identifier, an enum value, a module path
        // (`"membersCanCreateApiKey"`, `"paperless.auth.TokenStrategy"`), not a generated key; with
        // brackets and commas too, a type written as a string (`otp_secret: "Optional[str]" = None`).
        let identifierBytes: [UInt8] = [UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-")]
        let typeBytes: [UInt8] = [UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ",")]
        if bytes.allSatisfy({ letters.contains($0) || identifierBytes.contains($0) || typeBytes.contains($0) }) {
            return false
        }
        // Lower-case words joined by `_`, digits among them (`"tokenwizard_2nd_token"`): a name.
        if isSnakeCaseName(bytes) { return false }
        // Words and simple patterns are not keys; mixed classes and high entropy are.
        let classes = [ByteSet.upper, ByteSet.digits, ByteSet.lower]
            .filter { set in bytes.contains(where: set.contains) }.count
        return shannonEntropy(bytes) >= 3.0 && classes >= 2
    }
}
