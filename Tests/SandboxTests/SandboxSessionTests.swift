import Foundation
import Support
import Synchronization
import TestSupport
import Testing

@testable import Sandbox

#if canImport(Glibc)
    import Glibc
#endif

/// The one entry point: what a request carries reaches the payload, and the callbacks fire.
@Suite(.enabled(if: TestHost.canSandbox, "needs root and user namespaces"))
struct SandboxSessionTests {
    @Test func callerEnvironmentIsFilteredAndRequestVariablesAreSet() throws {
        var request = SandboxRequest(
            profile: .minimal, command: ["/bin/sh", "-c", "echo \"$LANG|$SECRET|$TOOL_MODE|$HOME\""],
            callerEnvironment: ["LANG": "C.UTF-8", "SECRET": "hunter2"], environment: ["TOOL_MODE": "json"])
        request.output = .capture
        let result = try SandboxSession.run(request)
        #expect(result.exitCode == 0)
        #expect(result.out == "C.UTF-8||json|/tmp\n")
    }

    /// The command's own time (execve to exit) is what it ran, not the sandbox's set-up: heal
    /// tells its overhead from it. A command that never ends on its own has none.
    @Test func theCommandsOwnTimeIsMeasuredApartFromTheLaunch() throws {
        let result = try SandboxSession.run(SandboxRequest(profile: .minimal, command: ["/bin/sleep", "0.3"]))
        #expect(result.exitCode == 0)
        let command = try #require(result.commandMicroseconds)
        #expect(command >= 300_000, "\(command) µs")
        #expect(command <= result.wallMilliseconds * 1000 + 1000, "\(command) µs of \(result.wallMilliseconds) ms")

        var profile = Profile.minimal
        profile.limits.timeoutSeconds = 0.2
        let stopped = try SandboxSession.run(SandboxRequest(profile: profile, command: ["/bin/sleep", "30"]))
        #expect(stopped.reason == .timeout)
        #expect(stopped.commandMicroseconds == nil)
    }

    @Test func workspaceIsTheWorkingDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "session-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("present\n".utf8).write(to: directory.appendingPathComponent("marker"))
        let result = try SandboxSession.run(
            SandboxRequest(
                profile: .minimal, command: ["/bin/sh", "-c", "pwd; cat marker"],
                workspace: directory.path))
        #expect(result.out == "/workspace\npresent\n")
    }

    /// Heal validates candidates on several threads at once. Each read-only workspace owned by
    /// another uid is idmapped through a helper user namespace; helpers cloned at the same moment
    /// used to inherit each other's hold pipe and wait for each other forever.
    @Test func concurrentRunsWithIdmappedWorkspacesAllFinish() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "session-idmap-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("shared\n".utf8).write(to: directory.appendingPathComponent("marker"))
        var limited = Profile.minimal
        limited.limits.timeoutSeconds = 60
        let profile = limited
        let outputs = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 24) { _ in
            let result = try? SandboxSession.run(
                SandboxRequest(profile: profile, command: ["/bin/cat", "marker"], workspace: directory.path))
            outputs.withLock { $0.append(result?.out ?? "failed") }
        }
        #expect(outputs.withLock { $0 } == Array(repeating: "shared\n", count: 24))
    }

    @Test func profileTimeoutEndsTheRun() throws {
        var profile = Profile.minimal
        profile.limits.timeoutSeconds = 1
        let result = try SandboxSession.run(SandboxRequest(profile: profile, command: ["/bin/sleep", "60"]))
        #expect(result.reason == .timeout)
        #expect(result.exitCode == 124)
    }

    @Test func deniedEgressIsReportedToTheCallback() throws {
        var profile = Profile.minimal
        profile.network.mode = .proxy
        profile.network.allow = ["allowed.invalid:443"]
        let denied = Mutex<[String]>([])
        var request = SandboxRequest(profile: profile, command: [])
        request.command = [
            "/usr/bin/python3", "-c",
            """
            import socket
            s = socket.create_connection(("127.0.0.1", 3128))
            s.sendall(b"CONNECT other.invalid:443 HTTP/1.1\\r\\nHost: other.invalid:443\\r\\n\\r\\n")
            print(s.recv(64).split(b"\\r\\n")[0].decode())
            """,
        ]
        request.onEgressDenied = { record in denied.withLock { $0.append("\(record.host):\(record.port)") } }
        let result = try SandboxSession.run(request)
        #expect(result.exitCode == 0, "\(result.err)")
        #expect(result.out.hasPrefix("HTTP/1.1 403"))
        #expect(denied.withLock { $0 } == ["other.invalid:443"])
        #expect(result.egress.map(\.allowed) == [false])
    }

    /// A root launcher makes the network namespace ahead of the clone, on a thread of its own:
    /// the payload finds it owned by the host's user namespace (`NS_GET_USERNS` is refused
    /// inside), its loopback up, its settings written and the proxy listening; the thread that
    /// ran the launch is back in its own network namespace.
    @Test func aRootLaunchersNetworkNamespaceIsMadeAheadAndBelongsToTheHost() throws {
        var profile = Profile.minimal
        profile.network.mode = .proxy
        var request = SandboxRequest(profile: profile, command: [])
        request.command = [
            "/usr/bin/python3", "-c",
            """
            import fcntl, os, socket
            try:
                fcntl.ioctl(os.open("/proc/self/ns/net", os.O_RDONLY), 0xb701)  # NS_GET_USERNS
                owner = "sandbox"
            except PermissionError:
                owner = "host"
            server = socket.socket()
            server.bind(("127.0.0.1", 0))
            server.listen()
            socket.create_connection(server.getsockname()).close()
            proxy = [line.split() for line in open("/proc/net/tcp") if " 0100007F:0C38 " in line]
            listening = bool(proxy) and proxy[0][3] == "0A"
            print(owner, open("/proc/sys/net/core/somaxconn").read().strip(), listening)
            """,
        ]
        let before = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self/ns/net")
        let result = try SandboxSession.run(request)
        #expect(result.exitCode == 0, "\(result.err)")
        #expect(result.out == "host 16 True\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self/ns/net") == before)
    }

    /// The fleet worker's analysis shares the root launcher's network namespace: it reaches a
    /// server on the host's loopback that a sandbox of its own cannot see, and it holds no
    /// capability there (its loopback cannot be taken down). A proxy beside it is refused.
    @Test func aSharedHostNetworkReachesTheHostsLoopbackAndChangesNothing() throws {
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(server) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(server, $0, length) == 0 && getsockname(server, $0, &length) == 0
            }
        }
        #expect(bound && listen(server, 4) == 0)
        let port = UInt16(bigEndian: address.sin_port)
        let script = """
            import socket, subprocess
            try:
                socket.create_connection(("127.0.0.1", \(port)), timeout=5).close()
                reached = "reached"
            except OSError:
                reached = "refused"
            down = subprocess.run(["/usr/sbin/ip", "link", "set", "lo", "down"], capture_output=True).returncode
            print(reached, "unchanged" if down != 0 else "changed")
            """
        var shared = SandboxRequest(profile: .minimal, command: ["/usr/bin/python3", "-c", script])
        shared.sharesHostNetwork = true
        let result = try SandboxSession.run(shared)
        #expect(result.exitCode == 0, "\(result.err)")
        #expect(result.out == "reached unchanged\n")
        let own = try SandboxSession.run(SandboxRequest(profile: .minimal, command: ["/usr/bin/python3", "-c", script]))
        #expect(own.out.hasPrefix("refused"), "\(own.out)\(own.err)")

        var proxied = Profile.minimal
        proxied.network.mode = .proxy
        var refused = SandboxRequest(profile: proxied, command: ["/bin/true"])
        refused.sharesHostNetwork = true
        #expect(throws: SentinelError.self) { try SandboxSession.run(refused) }
    }
}
