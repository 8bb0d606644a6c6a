import Foundation

/// One `Set-Cookie` header, parsed: the name, value and attributes the cookie checks read.
public struct SetCookie: Sendable, Hashable {
    /// The cookie's name.
    public var name: String
    /// Its value.
    public var value: String
    /// Attribute names present, lowercased (`secure`, `httponly`, ...).
    public var flags: Set<String>
    /// `SameSite` value, lowercased, when given.
    public var sameSite: String?
    /// `Max-Age`, when given and numeric.
    public var maxAge: Int?

    /// Parses `name=value; Attr; Attr=value`; nil without a name.
    public init?(_ header: String) {
        let parts = header.split(separator: ";", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard let first = parts.first, let equals = first.firstIndex(of: "=") else { return nil }
        name = String(first[..<equals]).trimmingCharacters(in: .whitespaces)
        value = String(first[first.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return nil }
        flags = []
        for attribute in parts.dropFirst() where !attribute.isEmpty {
            let pieces = attribute.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let key = pieces[0].lowercased()
            flags.insert(key)
            if key == "samesite", pieces.count > 1 { sameSite = pieces[1].lowercased() }
            if key == "max-age", pieces.count > 1 { maxAge = Int(pieces[1]) }
        }
    }
}
