import Documents
import Foundation
import Support

/// `prove.database`: a PostgreSQL server the proof starts beside the application, in a sandbox of
/// its own in the same network pod (a fresh cluster in its `/tmp`, trust authentication on
/// 127.0.0.1, discarded at the end), with one database and one role; the application is started
/// once it accepts connections, with `DATABASE_URL` and libpq's `PG*` variables naming it.
/// SQLite needs no declaration: the application's copy of the tree is writable.
public struct ProofDatabase: Sendable, Equatable {
    /// The database made (`name:`, `app`).
    public var name = "app"
    /// The role it is made for and owned by (`user:`, `app`).
    public var user = "app"
    /// The port the server listens on in the pod (`port:`, 5432).
    public var port: UInt16 = 5432

    static let keys: Set<String> = ["engine", "name", "user", "port"]

    /// Where Debian's PostgreSQL binaries are (the newest major version installed), if any.
    public static func binaries(under root: String = "/usr/lib/postgresql") -> String? {
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        return versions.reversed().map { "\(root)/\($0)/bin" }.first {
            FileManager.default.isExecutableFile(atPath: $0 + "/postgres")
        }
    }

    /// The server's sandbox command: a cluster made, the database made in single-user mode (so it
    /// exists once the server accepts connections), then the server in the foreground.
    func serverCommand(binaries: String) -> [String] {
        let script = """
            set -e
            "$SENTINEL_PG/initdb" -D /tmp/pgdata -U "$SENTINEL_PG_USER" --auth=trust -E UTF8 -N >/dev/null
            printf 'CREATE DATABASE "%s" OWNER "%s";\\n' "$SENTINEL_PG_NAME" "$SENTINEL_PG_USER" \\
              | "$SENTINEL_PG/postgres" --single -D /tmp/pgdata -F postgres >/dev/null
            exec "$SENTINEL_PG/postgres" -D /tmp/pgdata -h 127.0.0.1 -p "$SENTINEL_PG_PORT" -k /tmp -F \\
              -c dynamic_shared_memory_type=mmap
            """
        return ["/bin/sh", "-c", script]
    }

    /// The server's environment (its script reads the names from it, never from its text).
    func serverEnvironment(binaries: String) -> [String: String] {
        ["SENTINEL_PG": binaries, "SENTINEL_PG_USER": user, "SENTINEL_PG_NAME": name, "SENTINEL_PG_PORT": "\(port)"]
    }

    /// What the application is told of it (its own `env:` wins).
    var clientEnvironment: [String: String] {
        [
            "DATABASE_URL": "postgresql://\(user)@127.0.0.1:\(port)/\(name)", "PGHOST": "127.0.0.1", "PGPORT": "\(port)",
            "PGUSER": user, "PGDATABASE": name,
        ]
    }

    /// `argv` started once the server accepts connections (asked every 100 ms, for `seconds`).
    func waitingFor(_ argv: [String], binaries: String, seconds: Double) -> [String] {
        let tries = max(1, Int(seconds * 10))
        let script = """
            n=0
            until "$0/pg_isready" -q -h 127.0.0.1 -p "$1" -U "$2" -d "$3"; do
              n=$((n + 1)); [ "$n" -ge \(tries) ] && { echo "the database did not accept connections" >&2; exit 75; }
              sleep 0.1
            done
            shift 3
            exec "$@"
            """
        return ["/bin/sh", "-c", script, binaries, "\(port)", user, name] + argv
    }

    /// `prove.database` read from `node`: `postgresql`, or `{engine: postgresql, name, user, port}`.
    static func parse(_ node: DocumentNode, reader: DocumentReader) throws -> ProofDatabase {
        var database = ProofDatabase()
        let engine: String
        if node.isObject {
            try reader.checkKeys(node, allowed: keys, at: "prove.database")
            guard let value = node["engine"] else { throw reader.fail(node, "prove.database", "no 'engine' (postgresql)") }
            engine = try reader.scalarText(value, key: "prove.database.engine")
            for key in ["name", "user"] {
                guard let value = node[key] else { continue }
                let text = try reader.scalarText(value, key: "prove.database.\(key)")
                guard isIdentifier(text) else {
                    throw reader.fail(value, "prove.database.\(key)", "'\(text)' is not a lower-case name (a-z, 0-9, _; at most 63)")
                }
                if key == "name" { database.name = text } else { database.user = text }
            }
            if let value = node["port"] {
                let text = try reader.scalarText(value, key: "prove.database.port")
                guard let port = UInt16(text), port >= 1024 else {
                    throw reader.fail(value, "prove.database.port", "'\(text)' is not a port from 1024 to 65535")
                }
                database.port = port
            }
        } else {
            engine = try reader.scalarText(node, key: "prove.database")
        }
        guard engine == "postgresql" else {
            throw reader.fail(
                node, "prove.database", "'\(engine)' is not postgresql (SQLite needs no declaration: the application's copy is writable)")
        }
        return database
    }

    private static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter || first == "_", text.utf8.count <= 63 else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") }
    }
}
