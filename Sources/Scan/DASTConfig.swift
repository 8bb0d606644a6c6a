import DAST
import Documents
import Support

/// The `dast:` section of a scan config: how an authenticated web scan logs in. It holds
/// credentials, so only the operator's `--config FILE` may give it; a repository's own
/// `.sentinel.yml` naming it is refused (it could otherwise send the operator's secrets to a host).
///
/// ```yaml
/// dast:
///   login:
///     url: /login                      # the page with the login form
///     fields: {username: alice, password: {env: APP_PASSWORD}}
///     loggedInText: Log out            # optional: shown only after a successful login
///     loggedOutText: Please log in     # optional: shown only when nobody is logged in
///     # An API's login instead: the fields posted as JSON, the token sent back in a header.
///     format: json                     # form (default) or json
///     token: {json: data.token}        # or {header: Authorization}
///     authorization: "Bearer {token}"  # the default
///   exclude: [/user/chpasswd, /admin/**]   # URL paths never requested
/// ```
enum DASTConfig {
    static let keys: Set<String> = ["login", "exclude"]
    static let loginKeys: Set<String> = ["url", "fields", "loggedInText", "loggedOutText", "format", "token", "authorization"]

    /// The path globs of `dast.exclude` (each checked now: a bad one is named).
    static func exclude(_ node: DocumentNode, reader: DocumentReader) throws -> [String] {
        guard let list = node["exclude"] else { return [] }
        let patterns = try reader.stringList(list, key: "dast.exclude")
        for (index, pattern) in patterns.enumerated() {
            do {
                _ = try Glob.policy(pattern)
            } catch let error as SentinelError {
                throw reader.fail(list.elements[index], "dast.exclude[\(index)]", error.message)
            }
        }
        return patterns
    }

    /// The login of `node` (the `dast` value); `environment` gives `{env: NAME}` values.
    static func login(
        _ node: DocumentNode, reader: DocumentReader, environment: [String: String]
    ) throws -> WebLogin? {
        _ = try reader.mapping(node, key: "dast")
        try reader.checkKeys(node, allowed: keys, at: "dast")
        guard let login = node["login"] else { return nil }
        return try self.login(login, at: "dast.login", reader: reader, environment: environment)
    }

    /// The login `login` describes, its keys named below `at` (`dast.login`, `prove.login`);
    /// `environment` gives `{env: NAME}` values, nil refuses them (a repository's file: the
    /// application it starts would receive the operator's variable).
    static func login(
        _ login: DocumentNode, at path: String, reader: DocumentReader, environment: [String: String]?
    ) throws -> WebLogin {
        _ = try reader.mapping(login, key: path)
        try reader.checkKeys(login, allowed: loginKeys, at: path)
        guard let urlNode = login["url"], let url = try reader.string(urlNode, key: "\(path).url"), !url.isEmpty else {
            throw reader.fail(login, path, "needs url (the page with the login form)")
        }
        guard let fieldsNode = login["fields"] else {
            throw reader.fail(login, path, "needs fields (the form's values by field name)")
        }
        var fields: [String: String] = [:]
        for member in try reader.mapping(fieldsNode, key: "\(path).fields") {
            let key = "\(path).fields.\(member.key)"
            if member.value.isObject {
                try reader.checkKeys(member.value, allowed: ["env"], at: key)
                guard let nameNode = member.value["env"], let name = try reader.string(nameNode, key: key + ".env") else {
                    throw reader.fail(member.value, key, "give a value or {env: NAME}")
                }
                guard let environment else {
                    throw reader.fail(
                        member.value, key,
                        "a repository's .sentinel.yml gives literal values only: {env: NAME} would hand the operator's variable to its application"
                    )
                }
                guard let value = environment[name] else {
                    throw reader.fail(member.value, key, "the environment variable \(name) is not set")
                }
                fields[member.key] = value
            } else {
                fields[member.key] = try reader.scalarText(member.value, key: key)
            }
        }
        guard !fields.isEmpty else { throw reader.fail(fieldsNode, "\(path).fields", "names no field") }
        var result = WebLogin(
            url: url, fields: fields,
            loggedInText: try reader.string(login["loggedInText"], key: "\(path).loggedInText"),
            loggedOutText: try reader.string(login["loggedOutText"], key: "\(path).loggedOutText"))
        if let node = login["format"] {
            let text = try reader.scalarText(node, key: "\(path).format")
            guard let format = WebLogin.Format(rawValue: text) else {
                throw reader.fail(node, "\(path).format", "'\(text)' is not one of form, json")
            }
            result.format = format
        }
        if let node = login["token"] {
            let members = try reader.mapping(node, key: "\(path).token")
            try reader.checkKeys(node, allowed: ["json", "header"], at: "\(path).token")
            guard members.count == 1, let member = members.first, let place = try reader.string(member.value, key: "\(path).token"),
                !place.isEmpty
            else {
                throw reader.fail(node, "\(path).token", "give one of {json: PATH} or {header: NAME}")
            }
            result.token = member.key == "json" ? .json(place) : .header(place)
        }
        if let node = login["authorization"] {
            let text = try reader.scalarText(node, key: "\(path).authorization")
            guard text.contains("{token}"), !text.contains(where: \.isNewline) else {
                throw reader.fail(node, "\(path).authorization", "must hold {token} on one line")
            }
            result.authorization = text
        }
        return result
    }
}
