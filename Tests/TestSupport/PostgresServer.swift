#if canImport(Glibc)
    import Glibc
#endif
import Foundation

/// A throwaway PostgreSQL server for one test, as fleet mode's tests need one (issue 32): `initdb`
/// in a new temporary directory as the unprivileged `postgres` user (PostgreSQL refuses root),
/// password authentication (SCRAM) for a role `sentinel`, listening on 127.0.0.1 only at a free
/// port, its socket directory private. `stop()` (or deinit) stops it at once and removes the
/// directory.
public final class PostgresServer: @unchecked Sendable {
    /// Debian's PostgreSQL 15 programs.
    public static let binaries = "/usr/lib/postgresql/15/bin"

    /// PostgreSQL 16 programs with the pgvector extension, from the `pgserver` wheel `make
    /// pip-deps` puts in the test venv (Debian 12 packages no pgvector, and PGDG's packages are out
    /// of reach here); nil when it is not installed.
    public static let pgvectorBinaries: String? = {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let lib = root.path + "/.venv/lib"
        let pythons = (try? FileManager.default.contentsOfDirectory(atPath: lib)) ?? []
        return pythons.sorted().lazy.map { lib + "/" + $0 + "/site-packages/pgserver/pginstall/bin" }
            .first { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }
    }()

    /// The programs this server runs (``binaries`` unless a test chose others).
    public let programs: String
    /// The role the tests connect as.
    public let user = "sentinel"
    /// Its password (random per server).
    public let password: String
    /// The port it listens on, on 127.0.0.1.
    public private(set) var port: Int
    /// The server's directory (data and socket), removed by `stop()`.
    public let directory: String
    private var stopped = false

    /// Whether this host can start one: the programs and the `postgres` user exist, and we are root
    /// (to hand the directory to that user), and this run is not `make test-unit`'s tier.
    public static var available: Bool {
        FileManager.default.isExecutableFile(atPath: binaries + "/initdb") && getpwnam("postgres") != nil
            && geteuid() == 0 && !TestTier.isUnit
    }

    /// `postgres://sentinel:…@127.0.0.1:PORT/postgres`.
    public var url: String { "postgres://\(user):\(password)@127.0.0.1:\(port)/postgres" }

    /// The server's wall clock, when a test steps it (``stepClock(by:)``).
    private var clock: SteppedClock?
    /// How far the server's clock is from the machine's, in seconds.
    public private(set) var clockOffset = 0

    /// Initialises and starts a server; throws with the programs' output when either fails. With
    /// `steppableClock` it runs on a ``SteppedClock``: its wall clock moved by ``stepClock(by:)``
    /// while it runs and its monotonic clock left alone, as a step of the machine's clock (an
    /// operator's `date -s`, NTP stepping) moves the server's.
    ///
    /// `programs` is the directory of the PostgreSQL programs to run (``pgvectorBinaries`` for a
    /// server with pgvector); the `postgres` user must be able to run them.
    public init(tls: Bool = false, steppableClock: Bool = false, programs: String = PostgresServer.binaries) throws {
        self.programs = programs
        password = UUID().uuidString.replacingOccurrences(of: "-", with: "")
        directory = NSTemporaryDirectory() + "pg-" + UUID().uuidString
        port = try Self.freePort()
        guard let account = getpwnam("postgres") else { throw ServerError("no postgres user") }
        let owner = (account.pointee.pw_uid, account.pointee.pw_gid)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let passwordFile = directory + "/password"
        try password.write(toFile: passwordFile, atomically: false, encoding: .utf8)
        for path in [directory, passwordFile] {
            guard chown(path, owner.0, owner.1) == 0, chmod(path, 0o700) == 0 else {
                throw ServerError("cannot hand \(path) to postgres: errno \(errno)")
            }
        }
        if steppableClock { clock = try SteppedClock() }
        try run(
            "initdb", "-D", directory + "/data", "-U", user, "--auth=scram-sha-256", "--pwfile=" + passwordFile,
            "--no-sync", "-E", "UTF8", "--locale=C.UTF-8")
        if tls {
            // A self-signed certificate for 127.0.0.1, made by the server's user so the key stays its own.
            try run(
                "/usr/bin/openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", directory + "/data/server.key", "-out",
                directory + "/data/server.crt")
            settings += " -c ssl=on"
        }
        // The port was free when chosen; another test's server may take it before this one binds.
        for attempt in 1...5 {
            do {
                try start()
                break
            } catch {
                let log = (try? String(contentsOfFile: directory + "/log", encoding: .utf8)) ?? ""
                guard attempt < 5, log.contains("could not bind") || log.contains("already in use") else {
                    throw ServerError("\(error); server log: \(log.suffix(2000))")
                }
                port = try Self.freePort()
            }
        }
    }

    /// The server's certificate (with `tls`): the root a client verifies it against.
    public var certificate: String { directory + "/data/server.crt" }

    private var settings = "-c fsync=off"

    private func start() throws {
        try run(
            "pg_ctl", "-D", directory + "/data", "-l", directory + "/log", "-w", "-t", "60", "-o",
            "-h 127.0.0.1 -p \(port) -k \(directory) \(settings)", "start", environment: clock?.environment ?? [:])
    }

    /// Steps the server's wall clock by `seconds` (negative: back), at once, while it runs. Only a
    /// server started with `steppableClock`.
    public func stepClock(by seconds: Int) throws {
        guard let clock else { throw ServerError("this server's clock is the machine's") }
        clockOffset += seconds
        try clock.step(to: clockOffset)
        // Checked, so that a step the server did not take fails here rather than passing unseen.
        let reading = try psql("SELECT extract(epoch from clock_timestamp())").trimmingCharacters(in: .whitespacesAndNewlines)
        guard let serverNow = Double(reading), abs(serverNow - Date().timeIntervalSince1970 - Double(clockOffset)) < 30 else {
            throw ServerError("the server's clock reads \(reading), not \(clockOffset) s from this machine's")
        }
    }

    deinit { stop() }

    /// Stops the server at once and removes its directory.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        try? run("pg_ctl", "-D", directory + "/data", "-m", "immediate", "-w", "stop")
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// One server for every test of this process that only needs a database of its own
    /// (`createDatabase`); stopped and removed when the process exits. Nil where none can start.
    public static let shared: PostgresServer? = {
        guard available else { return nil }
        let server: PostgresServer
        do { server = try PostgresServer() } catch {
            // Said once, where the log shows it: every test needing the server fails without it.
            FileHandle.standardError.write(Data("PostgresServer.shared did not start: \(error)\n".utf8))
            return nil
        }
        atexit { PostgresServer.shared?.stop() }
        return server
    }()

    /// The database name at the end of a URL `createDatabase` returned.
    public static func databaseName(_ url: String) -> String {
        String(url.split(separator: "/").last ?? "postgres")
    }

    /// Creates a new empty database and returns its URL (`postgres://sentinel:…@127.0.0.1:PORT/NAME`).
    public func createDatabase() throws -> String {
        let name = "t" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try psql("CREATE DATABASE \(name)")
        return "postgres://\(user):\(password)@127.0.0.1:\(port)/\(name)"
    }

    /// Stops the server (fast shutdown: connections are cut) and starts it again on the same port,
    /// as an operator's restart or a failover would.
    public func restart(downFor seconds: Double = 0) throws {
        try run("pg_ctl", "-D", directory + "/data", "-m", "fast", "-w", "stop")
        if seconds > 0 { usleep(UInt32(seconds * 1_000_000)) }
        try start()
    }

    /// Runs `sql` through `psql` as the test role and returns its unaligned output.
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        try run(
            "psql", "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", String(port), "-U", user,
            "-d", database, "-c", sql, environment: ["PGPASSWORD": password], asPostgres: false)
    }

    /// A failure to start, or a program that exited non-zero, with its output.
    public struct ServerError: Error, CustomStringConvertible {
        /// What failed, with the program's output.
        public let description: String
        init(_ description: String) { self.description = description }
    }

    @discardableResult
    private func run(
        _ program: String, _ arguments: String..., environment: [String: String] = [:], asPostgres: Bool = true
    ) throws -> String {
        let process = Process()
        if asPostgres {
            // runuser drops root for the postgres user without a login shell or PAM session.
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
            // Descriptors above stderr closed first: the server outlives pg_ctl, and one it
            // inherited from this process (Foundation's exit-watch socket) would keep
            // `waitUntilExit` waiting until the server stops.
            process.arguments =
                [
                    "-u", "postgres", "--", "/usr/bin/python3", "-c",
                    "import os, sys; os.closerange(3, 65536); os.execv(sys.argv[1], sys.argv[1:])",
                    program.hasPrefix("/") ? program : programs + "/" + program,
                ] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: programs + "/" + program)
            process.arguments = arguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        // Output goes to a file, not a pipe: the server pg_ctl starts outlives it and would hold
        // a pipe's write end open, so reading to its end would wait for the server to stop.
        let outputPath = NSTemporaryDirectory() + "pg-output-" + UUID().uuidString
        guard FileManager.default.createFile(atPath: outputPath, contents: nil),
            let output = FileHandle(forWritingAtPath: outputPath)
        else { throw ServerError("cannot create \(outputPath)") }
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try? output.close()
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw ServerError("\(program) exited \(process.terminationStatus): \(text)")
        }
        return text
    }

    /// A port nothing listens on now on 127.0.0.1, below the kernel's ephemeral range: the local
    /// port of an outgoing connection (the tests make thousands) never takes it before a server
    /// binds it, as it could take a port the kernel chose for a bound, then closed, socket.
    public static func freePort() throws -> Int {
        let ephemeralStart = ephemeralPortRangeStart()
        for _ in 0..<200 {
            let candidate = Int.random(in: 20_000..<max(20_001, ephemeralStart))
            if try canBind(port: candidate) { return candidate }
        }
        throw ServerError("no free port in 20000..<\(ephemeralStart) after 200 tries")
    }

    /// The first port of `net.ipv4.ip_local_port_range` (Linux's default, 32768, when unreadable).
    private static func ephemeralPortRangeStart() -> Int {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        return text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first.flatMap { Int($0) } ?? 32768
    }

    /// Whether a socket can bind `port` on 127.0.0.1 now.
    private static func canBind(port: Int) throws -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError("socket: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        return withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 }
        }
    }
}
