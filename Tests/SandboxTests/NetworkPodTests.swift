import Foundation
import Support
import Synchronization
import TestSupport
import Testing

@testable import Sandbox

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 80: `scan --prove` without a URL runs the application and the web worker in two
/// sandboxes that share one network namespace (a pod). Its members reach each other and the
/// listener root keeps inside; nothing of the host's network, loopback included, is reachable.
@Suite(.serialized, .enabled(if: TestHost.canSandbox && geteuid() == 0, "a pod is made by a root launcher"))
struct NetworkPodTests {
    static let python = "/usr/bin/python3"

    static func run(_ script: String, pod: String, profile: Profile = .minimal) throws -> RunResult {
        var profile = profile
        profile.limits.timeoutSeconds = 60
        var request = SandboxRequest(profile: profile, command: [python, "-c", script])
        request.pod = pod
        return try SandboxSession.run(request)
    }

    /// What a member sees connecting to `host:port` (`open`, or the error's name).
    static func probe(_ host: String, _ port: Int) -> String {
        """
        import socket
        try:
            socket.create_connection(("\(host)", \(port)), timeout=2).close()
            print("open")
        except OSError as error:
            print(type(error).__name__)
        """
    }

    @Test func membersReachEachOtherAndTheListenerOnly() throws {
        let pod = try NetworkPod.open(name: "test-pod-\(getpid())", listenerPort: 47_300)
        defer { pod.close() }

        // One member serves a line, the other reads it at 127.0.0.1.
        let server = """
            import socket
            listener = socket.create_server(("127.0.0.1", 47301))
            connection, _ = listener.accept()
            connection.sendall(b"from the other member\\n")
            connection.close()
            """
        let served = Mutex<RunResult?>(nil)
        let thread = try #require(
            PosixThread.spawn(joinable: true) {
                let result = try? Self.run(server, pod: pod.name)
                served.withLock { $0 = result }
            })
        let client = """
            import socket, time
            for _ in range(300):
                try:
                    print(socket.create_connection(("127.0.0.1", 47301), timeout=2).recv(100).decode(), end="")
                    break
                except ConnectionRefusedError:
                    time.sleep(0.1)
            """
        let answer = try Self.run(client, pod: pod.name)
        pthread_join(thread, nil)
        #expect(answer.exitCode == 0, "\(answer.err)")
        #expect(answer.out == "from the other member\n")
        #expect(served.withLock { $0?.exitCode } == 0)

        // The listener root holds inside: what a member sends it arrives outside.
        let listener = try pod.duplicateListener()
        defer { close(listener) }
        let send = try Self.run(
            "import socket\ns = socket.create_connection(('127.0.0.1', 47300), timeout=5)\ns.sendall(b'canary')\ns.close()",
            pod: pod.name)
        #expect(send.exitCode == 0, "\(send.err)")
        let accepted = accept(listener, nil, nil)
        #expect(accepted >= 0)
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = read(accepted, &bytes, bytes.count)
        close(accepted)
        #expect(count == 6 && String(decoding: bytes.prefix(6), as: UTF8.self) == "canary")
    }

    @Test func nothingOfTheHostsNetworkIsReachable() throws {
        let pod = try NetworkPod.open(name: "test-pod-host-\(getpid())", listenerPort: 47_310)
        defer { pod.close() }
        // A server on the host's own loopback: a member's 127.0.0.1 is the pod's, not the host's.
        let host = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(host) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(host, $0, length) == 0 && getsockname(host, $0, &length) == 0 }
        }
        #expect(bound && listen(host, 4) == 0)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let loopback = try Self.run(Self.probe("127.0.0.1", port), pod: pod.name)
        #expect(loopback.out == "ConnectionRefusedError\n", "\(loopback.err)")
        // No route anywhere else.
        for target in ["10.0.2.2", "192.168.1.1", "8.8.8.8"] {
            let away = try Self.run(Self.probe(target, 53), pod: pod.name)
            #expect(away.out == "OSError\n", "\(target): \(away.out) \(away.err)")
        }
    }

    @Test func aPodIsJoinedWithoutAProxyAndOnlyByName() throws {
        var proxied = Profile.minimal
        proxied.network = .init(mode: .proxy, allow: ["example.com:80"])
        let pod = try NetworkPod.open(name: "test-pod-proxy-\(getpid())", listenerPort: 47_320)
        defer { pod.close() }
        #expect(throws: SentinelError.self) { try Self.run("print(1)", pod: pod.name, profile: proxied) }
        #expect(throws: SentinelError.self) { try Self.run("print(1)", pod: "no-such-pod") }
        #expect(throws: SentinelError.self) { try NetworkPod.open(name: pod.name, listenerPort: 47_321) }
        pod.close()
        #expect(throws: SentinelError.self) { try Self.run("print(1)", pod: pod.name) }
    }
}
