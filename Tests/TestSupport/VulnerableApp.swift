#if canImport(Glibc)
    import Glibc
#endif
import Foundation

/// The deliberately vulnerable web application of `Tests/Fixtures/dast` (Python standard
/// library, loopback only), started by a test and stopped after it. `expected` is its manifest:
/// every seeded vulnerability with its safe twin.
public final class VulnerableApp: @unchecked Sendable {
    /// The fixture directory.
    public static let directory: String = {
        var url = URL(fileURLWithPath: #filePath)
        url.deleteLastPathComponent()
        url.deleteLastPathComponent()
        return url.appendingPathComponent("Fixtures/dast").path
    }()

    /// The Flask application `sentinel scan --prove` is tested against (`Tests/Fixtures/prove`).
    public static let proveDirectory = (directory as NSString).deletingLastPathComponent + "/prove"

    /// True when Python 3 and Flask (Debian's python3-flask, `make test`) are there to run it.
    public static let flaskAvailable =
        pythonAvailable && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/flask/__init__.py")

    /// The Flask application on PostgreSQL `scan --prove` starts with its database (`Tests/Fixtures/prove-pg`).
    public static let provePostgresDirectory = (directory as NSString).deletingLastPathComponent + "/prove-pg"

    /// True when psycopg2 (Debian's python3-psycopg2) and PostgreSQL's server are there to run it.
    public static let postgresAppAvailable =
        flaskAvailable && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/psycopg2/__init__.py")
        && FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/15/bin/postgres")

    /// The Express application `sentinel scan --prove` is tested against (`Tests/Fixtures/prove-js`).
    public static let proveScriptDirectory = (directory as NSString).deletingLastPathComponent + "/prove-js"

    /// Node.js, when there (`/usr/bin/node` or `/usr/local/bin/node`).
    public static let node = ["/usr/bin/node", "/usr/local/bin/node"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// True when a Python 3 interpreter is there to run the app.
    public static let pythonAvailable = FileManager.default.isExecutableFile(atPath: python)
    /// The Python 3 interpreter the apps run with.
    public static let python =
        FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "/usr/local/bin/python3"

    /// The port it listens on (127.0.0.1).
    public let port: Int
    /// `http://127.0.0.1:PORT/`.
    public var url: String { "http://127.0.0.1:\(port)/" }
    private let process: Process
    private let portDirectory: String

    /// Starts the app (`script` of `directory`, the DAST fixtures by default, with `arguments`,
    /// run by `interpreter`, python3 by default, with `environment` added) and waits (up to 30 s)
    /// for it to listen.
    public init(
        script: String = "vulnapp.py", arguments: [String] = [], directory: String = VulnerableApp.directory,
        interpreter: String = VulnerableApp.python, environment: [String: String] = [:]
    ) throws {
        TestTier.startingServer("the vulnerable test application")
        portDirectory = NSTemporaryDirectory() + "vulnapp-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: portDirectory, withIntermediateDirectories: false)
        let portFile = portDirectory + "/port"
        process = Process()
        process.executableURL = URL(fileURLWithPath: interpreter)
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.arguments = [directory + "/" + script, "--port", "0", "--port-file", portFile] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var found: Int?
        for _ in 0..<300 {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8),
                let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                found = number
                break
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        guard let found else {
            process.terminate()
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "\(script) did not start"])
        }
        port = found
    }

    /// Stops the app: SIGTERM, and SIGKILL after five seconds (a request thread that sleeps,
    /// like `/hang`'s, would hold a clean shutdown for minutes).
    public func stop() {
        if process.isRunning {
            process.terminate()
            for _ in 0..<50 where process.isRunning { Thread.sleep(forTimeInterval: 0.1) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: portDirectory)
    }

    deinit { stop() }

    /// One seeded vulnerability or passive issue of the manifest.
    public struct Expected: Sendable, Decodable {
        /// The manifest's id (`xss-reflected-body`).
        public var id: String
        /// The class (`xss-reflected`, `missing-csp`, ...).
        public var `class`: String
        /// The CWE the finding must carry.
        public var cwe: Int
        /// The method (vulnerabilities only).
        public var method: String?
        /// The path.
        public var path: String
        /// The parameter (vulnerabilities only).
        public var parameter: String?
        /// How a crawler finds it (`link`, `form`, `robots`, `sitemap`, `openapi`, `auth`).
        public var discovery: String?
        /// The safe twin (method, path, parameter).
        public var twin: Twin?
    }

    /// A safe twin's address.
    public struct Twin: Sendable, Decodable {
        /// The method.
        public var method: String?
        /// The path.
        public var path: String
        /// The parameter.
        public var parameter: String?
    }

    /// The manifest's parts the tests use.
    public struct Manifest: Sendable, Decodable {
        /// Seeded vulnerabilities.
        public var vulnerabilities: [Expected]
        /// Seeded passive issues.
        public var passive: [Expected]
        /// URLs a scan must never request (`{port}`, `{otherPort}` placeholders).
        public var outOfScope: [String]
    }

    /// `expected.json`.
    public static func manifest() throws -> Manifest {
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/expected.json"))
        return try JSONDecoder().decode(Manifest.self, from: data)
    }
}
