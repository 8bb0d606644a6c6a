#if canImport(Glibc)
    import Glibc
#endif
import Support

/// What a process in another mount namespace (the fleet worker's unprivileged analysis) needs to
/// make the connection root's settings describe: libpq's files are root's and private, and the
/// places it finds them by default lie in root's home, which the analysis does not see. So root
/// makes the connection explicit: every file libpq would read (password file, client
/// certificate and key, root certificate and revocation list) is copied by `copy` and named in
/// the URL, and every Unix-socket directory is named by its real path, which the analysis binds.
public struct DatabaseRelocation: Sendable {
    /// The URL the analysis connects with; it carries a secret only when root's did
    /// (`DatabaseURL.hasPassword`), so it goes in the environment, never on a command line.
    public var url: DatabaseURL
    /// Directories holding the server's Unix sockets, real paths, to bind read-only (connecting
    /// to a socket needs no writable mount).
    public var socketDirectories: [String]

    /// Files libpq reads, by keyword: the variable that names one, and where it looks in HOME.
    static let files: [(keyword: String, variable: String, inHome: String)] = [
        ("passfile", "PGPASSFILE", ".pgpass"),
        ("sslcert", "PGSSLCERT", ".postgresql/postgresql.crt"),
        ("sslkey", "PGSSLKEY", ".postgresql/postgresql.key"),
        ("sslrootcert", "PGSSLROOTCERT", ".postgresql/root.crt"),
        ("sslcrl", "PGSSLCRL", ".postgresql/root.crl"),
    ]
    /// Where Debian's libpq looks for the server's socket when no host is named.
    static let defaultSocketDirectory = "/var/run/postgresql"

    /// `url` made explicit for another namespace; `environment` is root's (PGHOST, the files'
    /// variables, HOME); `copy(keyword, path)` copies a file libpq would read and returns the
    /// copy's path. An SQLite URL is returned as it is.
    public static func of(
        _ url: DatabaseURL, environment: [String: String], copy: (String, String) throws -> String
    ) throws -> DatabaseRelocation {
        guard case .postgres(let uri) = url, case .success(let parsed) = LibpqConninfo.parse(uri) else {
            return DatabaseRelocation(url: url, socketDirectories: [])
        }
        var options = parsed.map { (keyword: $0.keyword, value: $0.value) }
        func value(_ keyword: String) -> String? { options.first { $0.keyword == keyword }?.value }
        func set(_ keyword: String, _ value: String) {
            options.removeAll { $0.keyword == keyword }
            options.append((keyword, value))
        }
        var sockets: [String] = []
        let hosts = (value("host") ?? environment["PGHOST"] ?? "").split(separator: ",", omittingEmptySubsequences: false)
        let shown = hosts.map { host -> String in
            let named = host.isEmpty ? defaultSocketDirectory : String(host)
            guard named.hasPrefix("/") else { return named }
            let real = realPath(named) ?? named
            sockets.append(real)
            return real
        }
        set("host", shown.joined(separator: ","))
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        for file in files {
            guard let path = value(file.keyword) ?? environment[file.variable] ?? home.map({ $0 + "/" + file.inHome }),
                path.hasPrefix("/"), isRegularFile(path)
            else { continue }
            set(file.keyword, try copy(file.keyword, path))
        }
        let text = "postgresql://?" + options.map { "\($0.keyword)=\(percentEncoded($0.value))" }.joined(separator: "&")
        return DatabaseRelocation(url: .postgres(text), socketDirectories: Array(Set(sockets)).sorted())
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Every byte but unreserved ones as `%XX`: libpq decodes URI parameters.
    static func percentEncoded(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.append(Character(Unicode.Scalar(byte)))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
