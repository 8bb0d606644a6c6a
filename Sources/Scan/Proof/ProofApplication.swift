import DAST
import Documents
import Support

/// `prove:` in the configuration: how `sentinel scan --prove` (without a URL) starts the
/// application it proves findings against, in a sandbox of its own (profile `app`): the command,
/// the port it listens on (127.0.0.1 in the network it shares with the proof's worker only), the
/// path that answers once it is up, and how long to wait for that.
///
/// Trust: the declaration comes from the operator's `--config` file, or from the repository's
/// `.sentinel.yml` of the base revision under `--since` (a pull request does not choose what
/// runs, `ScanPlan`), else the scanned tree's own. What it names runs confined whatever it says:
/// a fresh writable copy of the tree (an overlay, discarded), no capability, no way out of its
/// network, the `app` profile's limits. Its `login` is the application's own account: literal
/// values only in a repository's file (`{env: NAME}` would hand the operator's variable to it).
public struct ProofApplication: Sendable, Equatable {
    /// The command (`run:`), executed in the copy of the tree; a string is `/bin/sh -c` it.
    public var command: [String]
    /// The port it listens on (`port:`), on 127.0.0.1.
    public var port: UInt16
    /// The path that answers (any HTTP status) once the application is up (`ready:`, `/`).
    public var readyPath = "/"
    /// Seconds to wait for it (`wait:`, 60 s; at most `maxWait`).
    public var waitSeconds: Double = 60
    /// Variables set for it (`env:`).
    public var environment: [String: String] = [:]
    /// Its working directory, relative to the tree's root (`directory:`, the root).
    public var directory: String?
    /// A PostgreSQL server started beside it (`database:`), nil for none.
    public var database: ProofDatabase?
    /// How the proof logs in to it (`login:`, as `dast.login`); `dast.login` when nil.
    public var login: WebLogin?

    /// The longest `wait:`.
    public static let maxWait: Double = 600
    /// The port of the out-of-band canary inside the proof's network: no application may use it.
    public static let canaryPort: UInt16 = 47_128
    static let keys: Set<String> = ["run", "port", "ready", "wait", "env", "directory", "database", "login"]

    /// A declaration; see the properties.
    public init(command: [String], port: UInt16) {
        self.command = command
        self.port = port
    }

    /// The URL the proof's requests go to.
    public var url: String { "http://127.0.0.1:\(port)/" }

    /// The command as the sandbox executes it: a program without a slash through `/usr/bin/env`
    /// (the profile's `PATH` finds it).
    public var argv: [String] {
        command.first?.contains("/") != false ? command : ["/usr/bin/env"] + command
    }

    /// `prove:` read from `node`. `environment` gives a login's `{env: NAME}` values; nil (a
    /// repository's file) refuses them. Throws `reader`'s one-line error naming the key and problem.
    static func parse(_ node: DocumentNode, reader: DocumentReader, environment: [String: String]? = [:]) throws -> ProofApplication {
        _ = try reader.mapping(node, key: "prove")
        try reader.checkKeys(node, allowed: keys, at: "prove")
        guard let run = node["run"] else { throw reader.fail(node, "prove", "no 'run' (the command that starts the application)") }
        let command: [String] =
            run.isArray ? try reader.stringList(run, key: "prove.run") : ["/bin/sh", "-c", try reader.scalarText(run, key: "prove.run")]
        guard let program = command.first, !program.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw reader.fail(run, "prove.run", "an empty command")
        }
        guard command.count <= 256, !command.contains(where: { $0.contains("\0") || $0.utf8.count > 4096 }) else {
            throw reader.fail(run, "prove.run", "more than 256 arguments, an argument over 4096 bytes, or a NUL byte")
        }
        guard let portNode = node["port"] else { throw reader.fail(node, "prove", "no 'port' (where the application listens)") }
        let portText = try reader.scalarText(portNode, key: "prove.port")
        guard let port = UInt16(portText), port >= 1024, port != canaryPort else {
            throw reader.fail(
                portNode, "prove.port", "'\(portText)' is not a port from 1024 to 65535 (\(canaryPort) is the proof's canary)")
        }
        var application = ProofApplication(command: command, port: port)
        if let ready = node["ready"] {
            let path = try reader.scalarText(ready, key: "prove.ready")
            // A path of the application's own origin: `//host/x` would be another host's.
            guard path.hasPrefix("/"), !path.hasPrefix("//"), path.utf8.count <= 2048,
                !path.contains(where: { $0.isWhitespace || $0.isNewline || $0 == "#" || $0 == "\\" || $0 == "\0" })
            else { throw reader.fail(ready, "prove.ready", "'\(path)' is not a path of the application (/health)") }
            application.readyPath = path
        }
        if let wait = node["wait"] {
            let seconds = try reader.duration(wait, key: "prove.wait")
            guard seconds > 0, seconds <= maxWait else {
                throw reader.fail(wait, "prove.wait", "must be more than 0 and at most \(Int(maxWait / 60))m")
            }
            application.waitSeconds = seconds
        }
        if let env = node["env"] {
            for member in try reader.mapping(env, key: "prove.env") {
                let name = member.key
                guard !name.isEmpty, name.utf8.count <= 256,
                    name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }), !name.first!.isNumber
                else { throw reader.fail(member.value, "prove.env", "'\(name)' is not a variable name") }
                let value = try reader.scalarText(member.value, key: "prove.env.\(name)")
                guard !value.contains("\0") else { throw reader.fail(member.value, "prove.env.\(name)", "a NUL byte") }
                application.environment[name] = value
            }
        }
        if let directory = node["directory"] {
            let path = try reader.scalarText(directory, key: "prove.directory")
            let parts = path.split(separator: "/", omittingEmptySubsequences: true)
            guard !path.hasPrefix("/"), !parts.isEmpty, !parts.contains(where: { $0 == ".." || $0 == "." }), !path.contains("\0")
            else { throw reader.fail(directory, "prove.directory", "'\(path)' is not a directory inside the tree") }
            application.directory = parts.joined(separator: "/")
        }
        if let login = node["login"] {
            // The application's own accounts (a seeded test user): sent to it and to nothing else.
            application.login = try DASTConfig.login(login, at: "prove.login", reader: reader, environment: environment)
        }
        if let database = node["database"] {
            application.database = try ProofDatabase.parse(database, reader: reader)
            guard application.database?.port != port, application.database?.port != canaryPort else {
                throw reader.fail(database, "prove.database.port", "the application's port, or the proof's canary's")
            }
        }
        return application
    }
}
