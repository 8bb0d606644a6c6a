import Support

/// Who a commit says wrote it (`Name <email>`): the reviewer approving a proposal (`--author`,
/// else git's own `GIT_AUTHOR_NAME`/`GIT_AUTHOR_EMAIL`), instead of Sentinel's fixed identity.
/// Sentinel stays the committer: the commit says who wrote the change and what made it.
public struct GitIdentity: Sendable, Hashable {
    /// The name (`Ada Lovelace`).
    public var name: String
    /// The e-mail address (`ada@example.org`).
    public var email: String

    /// The longest name or address accepted.
    static let maxLength = 256

    /// `name` and `email`, checked as git checks an identity: neither empty, neither holding `<`,
    /// `>`, a newline or a NUL, each at most 256 bytes.
    public init(name: String, email: String) throws {
        let name = name.trimmingCharacters(in: .whitespaces)
        let email = email.trimmingCharacters(in: .whitespaces)
        for (what, value) in [("name", name), ("e-mail", email)] {
            guard !value.isEmpty else { throw SentinelError(.invalidInput, "the author's \(what) is empty") }
            guard value.utf8.count <= Self.maxLength else {
                throw SentinelError(.invalidInput, "the author's \(what) is longer than \(Self.maxLength) bytes")
            }
            guard !value.unicodeScalars.contains(where: { "<>\n\r\0".unicodeScalars.contains($0) }) else {
                throw SentinelError(.invalidInput, "the author's \(what) holds '<', '>', a line break or a NUL")
            }
        }
        guard !email.contains(" ") else { throw SentinelError(.invalidInput, "the author's e-mail holds a space") }
        self.name = name
        self.email = email
    }

    /// `Name <email>`, as `git commit --author` writes it.
    public init(parsing text: String) throws {
        guard let open = text.lastIndex(of: "<"), text.hasSuffix(">"), open > text.startIndex else {
            throw SentinelError(.invalidInput, "'\(text)' is not 'Name <email>'")
        }
        try self.init(name: String(text[..<open]), email: String(text[text.index(after: open)..<text.index(before: text.endIndex)]))
    }

    /// The identity git's own variables give (`GIT_AUTHOR_NAME` and `GIT_AUTHOR_EMAIL`, both set);
    /// nil when they do not.
    public static func fromEnvironment(_ environment: [String: String]) throws -> GitIdentity? {
        guard let name = environment["GIT_AUTHOR_NAME"], let email = environment["GIT_AUTHOR_EMAIL"], !name.isEmpty, !email.isEmpty
        else { return nil }
        return try GitIdentity(name: name, email: email)
    }

    /// `Name <email>`.
    public var description: String { "\(name) <\(email)>" }

    /// The variables that make it a commit's author.
    var authorEnvironment: [String: String] { ["GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email] }
}
