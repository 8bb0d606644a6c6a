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
    static let quoteBytes: [UInt8] = [UInt8(ascii: "\""), UInt8(ascii: "'")]
    /// The longest value taken for a secret.
    static let maxValueBytes = 200
    static let placeholders = [
        "${", "{{", "<", "%(", "xxx", "changeme", "change_me", "example", "dummy", "placeholder",
        "your_", "your-", "****", "redacted", "todo", "fixme", "secret", "password",
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
            for start in ByteSearch.occurrences(of: keyword, in: lower[...]) {
                let keywordEnd = start + keyword.count
                // Occurrences come in order: one inside the identifier an earlier one measured
                // (`tokentoken…`) ends where it ends, so no byte is read twice.
                if keywordEnd >= identifierEnd { identifierEnd = endOfIdentifier(from: keywordEnd, in: lower) }
                if let value = valueAfter(identifierEnd: identifierEnd, in: lower), isSecretLike(line, value) {
                    result.append((line.startIndex + value.lowerBound)..<(line.startIndex + value.upperBound))
                }
            }
        }
        return ByteRanges.disjoint(result)
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
            if index < bytes.count, bytes[index] == UInt8(ascii: "=") { index += 1 }
        } else if bytes[index] == UInt8(ascii: "=") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "=") { return nil }  // a comparison
            if index < bytes.count, bytes[index] == UInt8(ascii: ">") { index += 1 }
        } else {
            return nil
        }
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            return nil
        }
        let quote = bytes[index]
        let start = index + 1
        // A value longer than `maxValueBytes` is no secret: look no further for its end.
        let window = bytes[start..<min(bytes.count, start + maxValueBytes + 1)]
        guard let end = window.firstIndex(of: quote) else { return nil }
        return start..<end
    }

    private static func isSecretLike(_ line: ArraySlice<UInt8>, _ value: Range<Int>) -> Bool {
        let bytes = line[(line.startIndex + value.lowerBound)..<(line.startIndex + value.upperBound)]
        guard bytes.count >= 8, bytes.count <= maxValueBytes, !bytes.contains(UInt8(ascii: " ")) else { return false }
        let text = String(decoding: bytes, as: UTF8.self).lowercased()
        if placeholders.contains(where: { text.contains($0) }) { return false }
        // Words and simple patterns are not keys; mixed classes and high entropy are.
        let classes = [ByteSet.upper, ByteSet.digits, ByteSet([UInt8(ascii: "a")...UInt8(ascii: "z")])]
            .filter { set in bytes.contains(where: set.contains) }.count
        return shannonEntropy(bytes) >= 3.0 && classes >= 2
    }
}
