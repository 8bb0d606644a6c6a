import Foundation
import Support

/// The identity git itself would write a commit in a repository as: `user.name` and
/// `user.email` from the repository's own configuration, else from the user's global files.
extension GitIdentity {
    /// Who a commit says wrote it: `option` (`--author`, `Name <email>`), else
    /// `GIT_AUTHOR_NAME`/`GIT_AUTHOR_EMAIL` (both set), else git's `user.name` and `user.email`
    /// for `repository` (``configured(repository:environment:)``); nil when none of them names
    /// both (Sentinel's identity). Throws `SentinelError(.invalidInput)` for a malformed option
    /// or variables; a configured identity git would not accept is passed over.
    public static func resolve(option: String?, environment: [String: String], repository: String?) throws -> GitIdentity? {
        if let option { return try GitIdentity(parsing: option) }
        if let identity = try fromEnvironment(environment) { return identity }
        return configured(repository: repository, environment: environment)
    }

    /// `user.name` and `user.email` as git reads them for `repository`: its own configuration
    /// (read by git in the sandbox, which reads no other), then the user's global files
    /// (`GIT_CONFIG_GLOBAL`, else `$XDG_CONFIG_HOME/git/config` and `~/.gitconfig`, the latter
    /// winning, as git reads them). Each value is taken from the first place naming it. Nil when
    /// the name or the address is set nowhere, or is not a valid identity.
    public static func configured(repository: String?, environment: [String: String]) -> GitIdentity? {
        var name: String?
        var email: String?
        if let repository, let root = try? GitRepository(containing: repository).root {
            name = localValue("user.name", in: root)
            email = localValue("user.email", in: root)
        }
        if name == nil || email == nil {
            var global = (name: String?.none, email: String?.none)
            for path in globalFiles(environment) {
                guard let data = try? BoundedFile.read(path, limit: 1 << 20) else { continue }
                let values = userValues(inConfig: String(decoding: data, as: UTF8.self))
                global = (values.name ?? global.name, values.email ?? global.email)
            }
            name = name ?? global.name
            email = email ?? global.email
        }
        guard let name, let email else { return nil }
        return try? GitIdentity(name: name, email: email)
    }

    /// The global configuration files git reads, in its order (a later one's value wins).
    static func globalFiles(_ environment: [String: String]) -> [String] {
        if let global = environment["GIT_CONFIG_GLOBAL"], !global.isEmpty { return [global] }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
        var files: [String] = []
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            files.append(xdg + "/git/config")
        } else if let home {
            files.append(home + "/.config/git/config")
        }
        if let home { files.append(home + "/.gitconfig") }
        return files
    }

    /// `key`'s value in the repository's own configuration, or nil when it is not set.
    private static func localValue(_ key: String, in root: String) -> String? {
        guard let output = try? GitRunner.run(["config", "--get", key], in: root), output.status == 0 else { return nil }
        let value = String(decoding: output.stdout, as: UTF8.self).trimmingCharacters(in: .newlines)
        return value.isEmpty ? nil : value
    }

    /// The last `name` and `email` of the `[user]` sections of a git configuration file (keys
    /// and section names in any case; `#` and `;` comments; double-quoted values with `\"`,
    /// `\\`, `\n` and `\t`). `include` directives are not followed.
    static func userValues(inConfig text: String) -> (name: String?, email: String?) {
        var name: String?
        var email: String?
        var inUser = false
        for raw in text.split(whereSeparator: \.isNewline) {
            var line = Substring(raw).drop { $0 == " " || $0 == "\t" }
            if line.first == "[" {
                guard let close = line.firstIndex(of: "]") else { continue }
                let header = line[line.index(after: line.startIndex)..<close].trimmingCharacters(in: .whitespaces)
                inUser = header.lowercased() == "user"
                line = line[line.index(after: close)...].drop { $0 == " " || $0 == "\t" }
            }
            guard inUser, !line.isEmpty, line.first != "#", line.first != ";" else { continue }
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let key = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
            guard key == "name" || key == "email" else { continue }
            let value = configValue(parts[1])
            if key == "name" { name = value } else { email = value }
        }
        return (name, email)
    }

    /// A configuration value: surrounding blanks dropped, a comment outside quotes ended, quotes
    /// removed and their escapes read.
    private static func configValue(_ text: Substring) -> String {
        var out = ""
        var quoted = false
        var pendingSpace = ""
        var characters = text.drop { $0 == " " || $0 == "\t" }.makeIterator()
        while let character = characters.next() {
            if character == "\"" {
                quoted.toggle()
            } else if character == "\\" {
                guard let next = characters.next() else { break }
                out += pendingSpace + (next == "n" ? "\n" : next == "t" ? "\t" : String(next))
                pendingSpace = ""
            } else if !quoted, character == "#" || character == ";" {
                return out
            } else if !quoted, character == " " || character == "\t" {
                pendingSpace.append(character)
            } else {
                out += pendingSpace + String(character)
                pendingSpace = ""
            }
        }
        return out
    }
}
