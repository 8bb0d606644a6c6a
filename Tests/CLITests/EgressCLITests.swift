#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import TestSupport
import Testing

/// A one-page HTTP server on 127.0.0.1 (an ephemeral port), stopped on deinit.
final class LoopbackServer {
    let process = Process()
    let port: Int

    init() throws {
        let script = """
            import http.server, socketserver, sys
            class H(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    body = b"hello from the host\\n"
                    self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers()
                    self.wfile.write(body)
                def log_message(self, *a): pass
            s = socketserver.TCPServer(("127.0.0.1", 0), H)
            open(sys.argv[1] + ".tmp", "w").write(str(s.server_address[1]))
            import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
            s.serve_forever()
            """
        // The port travels through a file: reading a child's pipe through Foundation can
        // block here even after the child has written.
        let portFile = NSTemporaryDirectory() + "sentinel-server-\(UUID().uuidString)"
        defer { unlink(portFile) }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, portFile]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var found = 0
        for _ in 0..<3000 where found == 0 {  // up to 60 s for python3 to start on a loaded machine
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8) { found = Int(text) ?? 0 }
            usleep(20_000)
        }
        port = found
    }

    deinit {
        // SIGKILL: the test process may pass on an ignored SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

@Suite(
    .serialized,
    .enabled(
        if: TestHost.canSandbox && FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"),
        "needs root, user namespaces and curl"))
struct EgressCLITests {
    @Test func allowedHostIsReachableThroughTheProxy() throws {
        let server = try LoopbackServer()
        let status = NSTemporaryDirectory() + "egress-\(UUID().uuidString).json"
        defer { unlink(status) }
        let result = try CLI.run([
            "sandbox", "run", "--allow", "127.0.0.1:\(server.port)", "--status-json", status, "--",
            "curl", "-s", "http://127.0.0.1:\(server.port)/",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "hello from the host\n")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: status))) as? [String: Any]
        let egress = json?["egress"] as? [[String: Any]] ?? []
        #expect(egress.count == 1)
        #expect(egress.first?["allowed"] as? Bool == true)
        #expect(egress.first?["port"] as? Int == server.port)
        #expect((egress.first?["bytes"] as? Int ?? 0) > 20)
    }

    @Test func pythonUrllibUsesTheProxyVariables() throws {
        let server = try LoopbackServer()
        let result = try CLI.run([
            "sandbox", "run", "--allow", "127.0.0.1:\(server.port)", "--",
            "python3", "-c",
            "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:\(server.port)/').read().decode(), end='')",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "hello from the host\n")
    }

    @Test func aHostTheProfileDoesNotNameIsDeniedWithOneLine() throws {
        let server = try LoopbackServer()
        // scan-semgrep runs the proxy with an empty allow-list.
        let result = try CLI.run([
            "sandbox", "run", "--profile", "scan-semgrep", "--",
            "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(server.port)/",
        ])
        #expect(result.stdout == "403")
        #expect(result.stderr.contains("sentinel: egress denied: 127.0.0.1:\(server.port) (no rule matches)"))
    }

    @Test func theWrongPortIsDenied() throws {
        let server = try LoopbackServer()
        let result = try CLI.run([
            "sandbox", "run", "--allow", "127.0.0.1:\(server.port + 1)", "--",
            "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(server.port)/",
        ])
        #expect(result.stdout == "403")
        #expect(result.stderr.contains("egress denied: 127.0.0.1:\(server.port)"))
    }

    @Test func bypassingTheProxyFindsNoRoute() throws {
        let server = try LoopbackServer()
        // --noproxy: a direct connection, in the sandbox's own network namespace.
        let direct = try CLI.run([
            "sandbox", "run", "--allow", "127.0.0.1:\(server.port)", "--",
            "curl", "-s", "--noproxy", "*", "-m", "5", "http://127.0.0.1:\(server.port)/",
        ])
        #expect(direct.status == 7, "connection refused inside the sandbox: \(direct.stderr)")
        // No resolver: a name lookup fails at once instead of leaking a DNS query.
        let dns = try CLI.run([
            "sandbox", "run", "--allow", "example.com", "--",
            "python3", "-c", "import socket; socket.getaddrinfo('example.com', 80)",
        ])
        #expect(dns.status != 0)
        #expect(dns.stderr.contains("gaierror"))
        // UDP has no proxy and no route out.
        let udp = try CLI.run([
            "sandbox", "run", "--allow", "example.com", "--",
            "python3", "-c", "import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', ('10.0.2.3', 53))",
        ])
        #expect(udp.status != 0)
        #expect(udp.stderr.contains("Network is unreachable"))
    }

    @Test func anotherSandboxCannotReachTheProxy() throws {
        let server = try LoopbackServer()
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: CLI.binary)
        // A unique sleep names the holder's payload, so the test can wait until it is running.
        let marker = "600.\(UInt32.random(in: 100_000...999_999))"
        holder.arguments = ["sandbox", "run", "--allow", "127.0.0.1:\(server.port)", "--", "sleep", marker]
        holder.standardOutput = FileHandle.nullDevice
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        defer {
            holder.interrupt()
            holder.waitUntilExit()
        }
        #expect(Self.waitForProcess(commandLine: "sleep\0\(marker)\0", seconds: 60), "the holder never started")
        // A second sandbox's 127.0.0.1:3128 is its own loopback, where nothing listens.
        let second = try CLI.run([
            "sandbox", "run", "--", "curl", "-s", "-m", "5", "-x", "http://127.0.0.1:3128",
            "http://127.0.0.1:\(server.port)/",
        ])
        #expect(second.status == 7, "\(second.stdout) \(second.stderr)")
    }

    /// Polls /proc until a process with exactly this command line (NUL-separated) exists.
    static func waitForProcess(commandLine: String, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            for entry in entries where Int32(entry) != nil {
                if let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                    String(decoding: data, as: UTF8.self) == commandLine
                {
                    return true
                }
            }
            usleep(20_000)
        } while Date() < deadline
        return false
    }
}
