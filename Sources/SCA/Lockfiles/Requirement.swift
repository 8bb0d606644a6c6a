/// One PEP 508 requirement as written in requirements files and pdm/uv metadata:
/// `name[extras] specifiers ; markers` plus pip's per-line `--hash` options.
struct Requirement {
    var name = ""
    /// Comma-separated extras, as written.
    var extras = ""
    /// The specifier set without spaces (`>=1.0,<2`), empty when there is none.
    var specifier = ""
    /// The exact version when the specifier pins one (`==1.2.3` without wildcard, or `===`).
    var pin: String?
    var markers = ""
    var hashes: [String] = []
    /// The URL of a `name @ url` direct reference.
    var url: String?

    init?(_ text: ArraySlice<UInt8>) {
        var body = text.trimmed
        // Per-requirement options start at the first " --".
        var optionStart: Int?
        var index = body.startIndex
        while index + 2 < body.endIndex {
            if body[index] == 0x20 || body[index] == 0x09, body[index + 1] == UInt8(ascii: "-"), body[index + 2] == UInt8(ascii: "-") {
                optionStart = index
                break
            }
            index += 1
        }
        if let optionStart {
            hashes = Requirement.hashes(in: body[optionStart...])
            body = body[body.startIndex..<optionStart].trimmed
        }
        var i = body.startIndex
        func isNameByte(_ c: UInt8) -> Bool {
            Requirement.isAlphanumeric(c) || c == UInt8(ascii: ".") || c == UInt8(ascii: "-") || c == UInt8(ascii: "_")
        }
        guard i < body.endIndex, Requirement.isAlphanumeric(body[i]) else { return nil }
        while i < body.endIndex, isNameByte(body[i]) { i += 1 }
        name = String(decoding: body[body.startIndex..<i], as: UTF8.self)
        func skipSpace() { while i < body.endIndex, body[i] == 0x20 || body[i] == 0x09 { i += 1 } }
        skipSpace()
        if i < body.endIndex, body[i] == UInt8(ascii: "[") {
            guard let close = body[i...].firstIndex(of: UInt8(ascii: "]")) else { return nil }
            extras = String(decoding: body[(i + 1)..<close], as: UTF8.self).filter { !$0.isWhitespace }
            i = close + 1
            skipSpace()
        }
        if i < body.endIndex, body[i] == UInt8(ascii: "@") {
            // A URL may contain ';', so markers need a space before the semicolon here.
            let rest = body[(i + 1)...].trimmed
            var end = rest.endIndex
            var k = rest.startIndex
            while k + 1 < rest.endIndex {
                if rest[k] == 0x20 || rest[k] == 0x09, rest[(k + 1)...].trimmed.first == UInt8(ascii: ";") {
                    end = k
                    break
                }
                k += 1
            }
            url = String(decoding: rest[rest.startIndex..<end].trimmed, as: UTF8.self)
            if end < rest.endIndex, let semicolon = rest[end...].firstIndex(of: UInt8(ascii: ";")) {
                markers = String(decoding: rest[(semicolon + 1)...].trimmed, as: UTF8.self)
            }
            return
        }
        var specifierBytes = body[i...]
        if let semicolon = specifierBytes.firstIndex(of: UInt8(ascii: ";")) {
            markers = String(decoding: body[(semicolon + 1)...].trimmed, as: UTF8.self)
            specifierBytes = body[i..<semicolon]
        }
        var spec = specifierBytes.trimmed
        if spec.first == UInt8(ascii: "("), spec.last == UInt8(ascii: ")") { spec = spec.dropFirst().dropLast() }
        guard parseSpecifiers(spec) else { return nil }
    }

    private mutating func parseSpecifiers(_ spec: ArraySlice<UInt8>) -> Bool {
        var clauses: [String] = []
        for part in spec.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            let clause = part.trimmed
            if clause.isEmpty {
                if spec.trimmed.isEmpty { break }
                return false
            }
            var j = clause.startIndex
            while j < clause.endIndex, Requirement.isOperator(clause[j]) { j += 1 }
            let op = String(decoding: clause[clause.startIndex..<j], as: UTF8.self)
            guard ["===", "==", "!=", "~=", "<=", ">=", "<", ">"].contains(op) else { return false }
            let version = clause[j...].trimmed
            guard !version.isEmpty, !version.contains(where: { $0 == 0x20 || $0 == 0x09 }) else { return false }
            let versionText = String(decoding: version, as: UTF8.self)
            clauses.append(op + versionText)
            if op == "===" || (op == "==" && !versionText.contains("*")) {
                if pin == nil { pin = versionText }
            }
        }
        specifier = clauses.joined(separator: ",")
        return true
    }

    static func hashes(in options: ArraySlice<UInt8>) -> [String] {
        let words = options.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 }).map { String(decoding: $0, as: UTF8.self) }
        var out: [String] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            if word.hasPrefix("--hash=") {
                out.append(String(word.dropFirst("--hash=".count)))
            } else if word == "--hash", index + 1 < words.count {
                out.append(words[index + 1])
                index += 1
            }
            index += 1
        }
        return out
    }

    /// URLs, VCS references, local paths and archive names: installable but unversioned.
    static func isDirectReference(_ text: ArraySlice<UInt8>) -> Bool {
        let s = String(decoding: text, as: UTF8.self)
        return s.contains("://") || s.hasPrefix("git+") || s.hasPrefix("hg+") || s.hasPrefix("svn+") || s.hasPrefix("bzr+")
            || s.hasPrefix("./") || s.hasPrefix("../") || s.hasPrefix("/") || s.hasPrefix("~")
            || s.hasSuffix(".whl") || s.hasSuffix(".tar.gz") || s.hasSuffix(".zip") || s == "."
    }

    static func isAlphanumeric(_ c: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c)
    }

    static func isOperator(_ c: UInt8) -> Bool {
        c == UInt8(ascii: "=") || c == UInt8(ascii: "<") || c == UInt8(ascii: ">") || c == UInt8(ascii: "!") || c == UInt8(ascii: "~")
    }
}
