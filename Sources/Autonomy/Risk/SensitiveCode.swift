/// Which sensitive areas (`auth`, `crypto`, `network`) a change touches, from three sources:
/// the CWE ids of the signal's rule, the changed paths, and the identifiers in the changed
/// lines. Words are matched whole — `author.py` and `login_required` are not auth — because a
/// risk term that fires on substrings fires on everything.
public enum SensitiveCode {
    /// CWE id → area.
    public static let cweAreas: [Int: String] = {
        var table: [Int: String] = [:]
        for id in [295, 296, 297, 310, 311, 312, 319, 320, 321, 326, 327, 328, 329, 330, 331, 338, 759, 760, 916] {
            table[id] = "crypto"
        }
        for id in [259, 284, 285, 287, 288, 290, 306, 307, 352, 384, 521, 522, 613, 614, 640, 798, 862, 863, 1004] {
            table[id] = "auth"
        }
        for id in [601, 918, 941, 1385] { table[id] = "network" }
        return table
    }()

    /// Word of a path (a segment, or a part of one split at punctuation, digits and camel case) → area.
    public static let pathWords: [String: String] = [
        "auth": "auth", "login": "auth", "session": "auth", "password": "auth", "token": "auth", "oauth": "auth",
        "jwt": "auth", "permission": "auth", "permissions": "auth",
        "crypto": "crypto", "crypt": "crypto", "ssl": "crypto", "tls": "crypto", "cert": "crypto", "certs": "crypto",
        "signing": "crypto", "keys": "crypto",
        "net": "network", "http": "network", "client": "network", "api": "network", "socket": "network",
        "proxy": "network",
    ]

    /// Identifier (module, function or method name, case as in code) → area. Dotted entries
    /// match consecutive parts of a dotted name (`http.client.HTTPConnection`).
    public static let identifiers: [String: String] = [
        "hashlib": "crypto", "hmac": "crypto", "ssl": "crypto", "secrets": "crypto", "cryptography": "crypto",
        "Crypto": "crypto", "jwt": "crypto", "bcrypt": "crypto", "passlib": "crypto",
        "requests": "network", "urllib": "network", "http.client": "network", "socket": "network", "httpx": "network",
        "aiohttp": "network", "paramiko": "network", "ftplib": "network", "smtplib": "network",
        "login": "auth", "authenticate": "auth", "check_password": "auth", "set_password": "auth",
        "permission": "auth", "csrf": "auth", "session": "auth",
    ]

    /// The areas touched, sorted and unique.
    public static func areas(changedText: [String], paths: [String], cwes: [Int]) -> [String] {
        var found = Set(cwes.compactMap { cweAreas[$0] })
        for path in paths {
            for segment in path.split(separator: "/") {
                found.formUnion(words(of: segment).compactMap { pathWords[$0] })
            }
        }
        for line in changedText {
            for name in dottedNames(line) {
                found.formUnion(name.compactMap { identifiers[$0] })
                // Two-part entries (`http.client`) over each adjacent pair.
                for index in name.indices.dropLast() {
                    if let area = identifiers["\(name[index]).\(name[index + 1])"] { found.insert(area) }
                }
            }
        }
        return found.sorted()
    }

    /// The lowercase words of a path segment: `AuthService.java` → auth, service, java;
    /// `oauth2_client.py` → oauth, client, py.
    static func words(of segment: Substring) -> [String] {
        var words: [String] = []
        var current = ""
        var previousLower = false
        for character in segment {
            let isLetter = character.isASCII && character.isLetter
            // A new word at a non-letter, and where camel case turns upper.
            if !isLetter || (character.isUppercase && previousLower) {
                if !current.isEmpty { words.append(current) }
                current = ""
            }
            if isLetter { current.append(Character(character.lowercased())) }
            previousLower = isLetter && character.isLowercase
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// Dotted identifier chains of a line, as their parts: `import http.client as c` →
    /// [import], [http, client], [as], [c]. An identifier is letters, digits and `_`, not starting with a digit.
    static func dottedNames(_ line: String) -> [[String]] {
        var names: [[String]] = []
        var parts: [String] = []
        var current = ""
        func endPart() {
            if !current.isEmpty { parts.append(current) }
            current = ""
        }
        func endName() {
            endPart()
            if !parts.isEmpty { names.append(parts) }
            parts = []
        }
        for character in line {
            if character == "_" || (character.isASCII && (character.isLetter || character.isNumber)) {
                current.append(character)
            } else if character == ".", !current.isEmpty {
                endPart()
            } else {
                endName()
            }
        }
        endName()
        // A word starting with a digit is a number, not a name (`1.5`).
        return names.map { $0.filter { !($0.first?.isNumber ?? true) } }.filter { !$0.isEmpty }
    }
}
