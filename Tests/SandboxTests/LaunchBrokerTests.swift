import CSystem
import Foundation
import Support
import Synchronization
import TestSupport
import Testing

@testable import Sandbox

#if canImport(Glibc)
    import Glibc
#endif

/// The root launcher's broker for the analysis sandbox: what a (possibly subverted) analysis
/// asks for is checked before anything runs, and what is allowed runs as any sandbox does.
@Suite("launch broker: the analysis asks, root checks and launches")
struct LaunchBrokerTests {
    /// A repository `repo` with one file, a sibling `repo-evil`, and a link out of the repository.
    final class Scratch {
        let root: String
        var repository: String { root + "/repo" }
        let held: WorkspaceDirectory

        init() throws {
            root = try ScratchDirectory.make(prefix: "broker")
            for directory in ["repo/src", "repo-evil", "outside"] {
                try FileManager.default.createDirectory(atPath: root + "/" + directory, withIntermediateDirectories: true)
            }
            try "inside\n".write(toFile: root + "/repo/src/f.txt", atomically: false, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: root + "/repo/out", withDestinationPath: root + "/outside")
            held = try WorkspaceDirectory(resolving: root + "/repo")
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        func policy(egress: Set<String> = []) -> BrokerPolicy {
            BrokerPolicy(
                repository: held, shownAt: repository, allowedEgress: egress,
                ceiling: .init(memoryBytes: 1 << 30, pids: 64, timeoutSeconds: 60, outputBytes: 1 << 20))
        }
    }

    static func launch(_ profile: Profile = .minimal, workspace: String? = nil, extraReadOnly: [String] = []) -> BrokeredLaunch {
        var request = SandboxRequest(profile: profile, command: ["/bin/true"], workspace: workspace, extraReadOnly: extraReadOnly)
        request.output = .capture
        return BrokeredLaunch(request)
    }

    static func refusal(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as SentinelError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test(
        "no seccomp filter but the built-in one",
        arguments: [Profile.Seccomp.disabled, .oci(path: "/etc/passwd"), .defaultWithOpenat2])
    func onlyTheBuiltInFilter(seccomp: Profile.Seccomp) throws {
        let scratch = try Scratch()
        var profile = Profile.minimal
        profile.seccomp = seccomp
        let message = Self.refusal { _ = try scratch.policy().request(for: Self.launch(profile), input: nil) }
        #expect(message?.contains("only the built-in seccomp filter") == true, "\(message ?? "allowed")")
    }

    @Test("a network pod only of those root made, and no proxy beside it")
    func podsOnlyRootMade() throws {
        let scratch = try Scratch()
        var launch = Self.launch()
        launch.pod = "prove"
        let unknown = Self.refusal { _ = try scratch.policy().request(for: launch, input: nil) }
        #expect(unknown?.contains("network pod prove, which root did not make") == true, "\(unknown ?? "allowed")")
        var policy = scratch.policy(egress: ["target.example:80"])
        policy.pods = ["prove"]
        let joined = try policy.request(for: launch, input: nil)
        #expect(joined.request.pod == "prove")
        var proxied = Profile.minimal
        proxied.network = .init(mode: .proxy, allow: ["target.example:80"])
        var both = Self.launch(proxied)
        both.pod = "prove"
        let refused = Self.refusal { _ = try policy.request(for: both, input: nil) }
        #expect(refused?.contains("a proxy beside network pod prove") == true, "\(refused ?? "allowed")")
    }

    @Test("egress only to what the command line named")
    func egressOnlyToNamedHosts() throws {
        let scratch = try Scratch()
        var profile = Profile.minimal
        profile.network = .init(mode: .proxy, allow: ["attacker.example:443"])
        let refused = Self.refusal { _ = try scratch.policy(egress: ["target.example:80"]).request(for: Self.launch(profile), input: nil) }
        #expect(refused?.contains("egress to attacker.example:443") == true)
        profile.network.allow = ["target.example:80"]
        let allowed = try scratch.policy(egress: ["target.example:80"]).request(for: Self.launch(profile), input: nil)
        #expect(allowed.request.profile.network.allow == ["target.example:80"])
    }

    @Test(
        "a workspace only inside the repository, by no link",
        arguments: ["/etc", "REPO-evil", "REPO/../outside", "REPO/out", "REPO/missing", "/proc/self/root"])
    func workspaceOnlyInsideTheRepository(path: String) throws {
        let scratch = try Scratch()
        let named = path.replacingOccurrences(of: "REPO", with: scratch.repository)
        let message = Self.refusal {
            let made = try scratch.policy().request(for: Self.launch(workspace: named), input: nil)
            made.held.forEach { close($0) }
        }
        #expect(message != nil, "\(named) was allowed")
    }

    @Test("the repository and its directories are lent read-only, by descriptor")
    func repositoryDirectoriesAreLent() throws {
        let scratch = try Scratch()
        for path in [scratch.repository, scratch.repository + "/src", scratch.repository + "/./src/"] {
            let made = try scratch.policy().request(for: Self.launch(workspace: path), input: nil)
            let held = try #require(made.held.first)
            defer { made.held.forEach { close($0) } }
            #expect(made.request.workspace == "/proc/self/fd/\(held)")
        }
        var writable = Profile.minimal
        writable.filesystem.workspace = .rw
        let message = Self.refusal {
            _ = try scratch.policy().request(for: Self.launch(writable, workspace: scratch.repository), input: nil)
        }
        #expect(message?.contains("writable workspace") == true)
    }

    @Test("no bind of the kernel's trees or of the whole root", arguments: ["/proc", "/proc/1/root", "/sys/kernel", "/dev", "/"])
    func noKernelTrees(path: String) throws {
        let scratch = try Scratch()
        let message = Self.refusal { _ = try scratch.policy().request(for: Self.launch(extraReadOnly: [path]), input: nil) }
        #expect(message?.contains("binding \(path)") == true, "\(message ?? "allowed")")
    }

    /// Red team of the broker, finding 1: the launcher builds the new root by path, as root,
    /// before it pivots; a path with `..`, or through a link the repository holds, made root
    /// chmod a host file 0644 and create host directories.
    @Test(
        "no bind, tmpfs or mount point root did not choose: .., links, the repository",
        arguments: [
            "extra:/usr/../../../../tmp/victim", "extra:REPO/out/.", "extra:REPO/out", "extra:/usr/", "tmpfs:/usr/../tmp/new",
            "tmpfs:REPO/out/made", "tmpfs:/var/tmp", "readOnly:/root", "mount:/tmp/x", "mount:REPO", "workdir:/etc",
            "workdir:/workspace/../etc",
        ])
    func onlyRootsOwnPaths(case: String) throws {
        let scratch = try Scratch()
        let parts = `case`.split(separator: ":", maxSplits: 1).map(String.init)
        let value = parts[1].replacingOccurrences(of: "REPO", with: scratch.repository)
        var profile = Profile.minimal
        var extra: [String] = []
        switch parts[0] {
        case "extra": extra = [value]
        case "tmpfs": profile.filesystem.tmpfs[value] = 1 << 20
        case "readOnly": profile.filesystem.readOnly.append(value)
        default: break
        }
        var request = SandboxRequest(profile: profile, command: ["/bin/true"], extraReadOnly: extra)
        request.output = .capture
        if parts[0] == "mount" { request.workspaceMountPoint = value }
        if parts[0] == "workdir" { request.workingDirectory = value }
        let message = Self.refusal { _ = try scratch.policy().request(for: BrokeredLaunch(request), input: nil) }
        #expect(message?.contains("refused") == true, "\(`case`) was allowed")
    }

    @Test("beneath a tree root allows: no link on the way, and neither a socket nor a FIFO")
    func beneathAnAllowedTree() throws {
        let scratch = try Scratch()
        let tree = scratch.root + "/tools"
        try FileManager.default.createDirectory(atPath: tree + "/lib", withIntermediateDirectories: true)
        try "x".write(toFile: tree + "/lib/tool.py", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: tree + "/etc", withDestinationPath: "/etc")
        #expect(mkfifo(tree + "/fifo", 0o600) == 0)
        let socket = csys_unix_listen(tree + "/sock")
        defer { close(socket) }
        var policy = scratch.policy()
        policy.readOnlyRoots.insert(tree)
        try policy.checkBind(tree + "/lib/tool.py")
        try policy.checkBind(tree + "/lib")
        for path in [tree + "/etc/passwd", tree + "/etc", tree + "/fifo", tree + "/sock", tree + "/none"] {
            #expect(Self.refusal { try policy.checkBind(path) } != nil, "\(path) was allowed")
        }
    }

    /// A fleet worker's analysis has no repository of its own: its repository roots are lent
    /// read-only, and its scratch directory writable. Its launches mount directories of either by
    /// the launcher's descriptor; nothing else is a workspace, and a root is never written.
    @Test("read-only trees: workspaces and binds beneath them by descriptor, never writable; no repository, nothing else")
    func readOnlyTreesWithoutARepository() throws {
        let scratch = try Scratch()
        var policy = BrokerPolicy(
            repository: nil, shownAt: "/", ceiling: .init(memoryBytes: 1 << 30, pids: 64, timeoutSeconds: 60, outputBytes: 1 << 20))
        policy.trees = [.init(directory: scratch.held, shownAt: scratch.repository, writable: false)]
        let made = try policy.request(
            for: Self.launch(workspace: scratch.repository + "/src", extraReadOnly: [scratch.repository + "/src"]), input: nil)
        defer { made.held.forEach { close($0) } }
        #expect(made.request.workspace?.hasPrefix("/proc/self/fd/") == true)
        #expect(made.request.lent.map(\.mountPoint) == [scratch.repository + "/src"])
        #expect(made.request.extraReadOnly.isEmpty)
        var writable = Profile.minimal
        writable.filesystem.workspace = .rw
        let refusedWrite = Self.refusal { _ = try policy.request(for: Self.launch(writable, workspace: scratch.repository), input: nil) }
        #expect(refusedWrite?.contains("read-only to the analysis") == true, "\(refusedWrite ?? "allowed")")
        for path in [scratch.root + "/outside", scratch.repository + "/out", "/"] {
            #expect(Self.refusal { _ = try policy.request(for: Self.launch(workspace: path), input: nil) } != nil, "\(path) was allowed")
        }
    }

    @Test("egress to any host only for an analysis that shares the host's network itself")
    func anyEgressOnlyWhenAllowed() throws {
        let scratch = try Scratch()
        var profile = Profile.minimal
        profile.network = .init(mode: .proxy, allow: ["git.example:443"])
        var policy = scratch.policy()
        #expect(Self.refusal { _ = try policy.request(for: Self.launch(profile), input: nil) } != nil)
        policy.allowsAnyEgress = true
        _ = try policy.request(for: Self.launch(profile), input: nil)
    }

    @Test("a file of the repository is bound only where nobody but root could swap a component", .enabled(if: geteuid() == 0))
    func bindInTheRepository() throws {
        let scratch = try Scratch()
        try scratch.policy().checkBind(scratch.repository + "/src/f.txt")
        #expect(Self.refusal { try scratch.policy().checkBind(scratch.repository + "/out/x") } != nil, "through a link")
        chown(scratch.repository + "/src", 4242, 4242)
        #expect(Self.refusal { try scratch.policy().checkBind(scratch.repository + "/src/f.txt") }?.contains("not root's alone") == true)
    }

    @Test(
        "limits that are not positive and finite are refused, not trapped on (red team finding 5)",
        arguments: ["openFiles", "pids", "timeout", "cpus", "memory", "inotify"])
    func badLimitsAreRefused(limit: String) throws {
        let scratch = try Scratch()
        var profile = Profile.minimal
        switch limit {
        case "openFiles": profile.limits.openFiles = -1
        case "pids": profile.limits.pids = 0
        case "timeout": profile.limits.timeoutSeconds = -5
        case "cpus": profile.limits.cpus = .nan
        case "memory": profile.limits.memoryBytes = 0
        default: profile.limits.inotifyWatches = -1
        }
        let message = Self.refusal { _ = try scratch.policy().request(for: Self.launch(profile), input: nil) }
        #expect(message?.contains("limit") == true, "\(message ?? "allowed")")
    }

    @Test("no granted secrets, no odd host name, no variable that is not one")
    func profileFieldsAreChecked() throws {
        let scratch = try Scratch()
        var secrets = Profile.minimal
        secrets.secrets = ["GITHUB_TOKEN"]
        var hostname = Profile.minimal
        hostname.hostname = String(repeating: "h", count: 65)
        for profile in [secrets, hostname] {
            #expect(Self.refusal { _ = try scratch.policy().request(for: Self.launch(profile), input: nil) } != nil)
        }
        var request = SandboxRequest(profile: .minimal, command: ["/bin/true"], environment: ["A=B": "c"])
        request.output = .capture
        #expect(Self.refusal { _ = try scratch.policy().request(for: BrokeredLaunch(request), input: nil) } != nil)
    }

    @Test("limits are clamped to the analysis's and the default hidden files always hidden")
    func limitsAndHiddenFiles() throws {
        let scratch = try Scratch()
        var profile = Profile.minimal
        profile.limits.memoryBytes = 64 << 30
        profile.limits.timeoutSeconds = nil
        profile.filesystem.hidden = []
        let made = try scratch.policy().request(for: Self.launch(profile), input: nil)
        #expect(made.request.profile.limits.memoryBytes == 1 << 30)
        #expect(made.request.profile.limits.timeoutSeconds == 60)
        #expect(Set(Profile.defaultHidden).isSubset(of: made.request.profile.filesystem.hidden))
    }

    @Test(
        "a launch through the socket runs unprivileged over the lent repository; writes and files too",
        .enabled(if: TestHost.canSandbox, "needs root and user namespaces"))
    func roundTrip() throws {
        let scratch = try Scratch()
        let written = Mutex<Data?>(nil)
        try "advisories\n".write(toFile: scratch.root + "/db", atomically: false, encoding: .utf8)
        let broker = try LaunchBroker(
            services: .init(
                policy: scratch.policy(), slots: ["output": { data in written.withLock { $0 = data } }],
                resources: ["db": scratch.root + "/db", "link": scratch.repository + "/out"]))
        defer { broker.stop() }

        var request = SandboxRequest(
            profile: .minimal, command: ["/bin/sh", "-c", "id -u; cat src/f.txt; cat; echo oops >&2"],
            workspace: scratch.repository)
        request.input = Array("stdin\n".utf8)
        let noticed = Mutex<[String]>([])
        request.onNotice = { notice in noticed.withLock { $0.append(notice) } }
        let result = try LaunchBrokerClient.launch(request, socket: broker.socketPath)
        #expect(result.exitCode == 0)
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.count == 3 && lines[1] == "inside" && lines[2] == "stdin", "\(lines)")
        #expect(String(decoding: result.stderr, as: UTF8.self) == "oops\n")

        try LaunchBrokerClient.write(slot: "output", Data("report".utf8), socket: broker.socketPath)
        #expect(written.withLock { $0 } == Data("report".utf8))
        #expect(
            Self.refusal { try LaunchBrokerClient.write(slot: "other", Data(), socket: broker.socketPath) }?.contains(
                "no output named other") == true)

        let fd = try LaunchBrokerClient.open(resource: "db", socket: broker.socketPath)
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(read(fd, &buffer, 64) == 11)
        #expect(write(fd, "x", 1) == -1, "a lent file must be read-only")
        #expect(Self.refusal { _ = try LaunchBrokerClient.open(resource: "link", socket: broker.socketPath) } != nil)

        var refused = SandboxRequest(profile: .minimal, command: ["/bin/true"], workspace: "/etc")
        refused.output = .capture
        #expect(
            Self.refusal { _ = try LaunchBrokerClient.launch(refused, socket: broker.socketPath) }?.contains("outside the repository")
                == true)
    }

    @Test(
        "a handle stops a brokered run: the client hangs up, the broker kills the run and answers at once",
        .enabled(if: TestHost.canSandbox, "needs root and user namespaces"), .timeLimit(.minutes(2)))
    func handleStopsABrokeredRun() throws {
        let scratch = try Scratch()
        let broker = try LaunchBroker(services: .init(policy: scratch.policy()))
        defer { broker.stop() }
        var request = SandboxRequest(profile: .minimal, command: ["/bin/sleep", "600"], workspace: scratch.repository)
        let handle = LaunchHandle()
        request.handle = handle
        Thread.detachNewThread {
            usleep(300_000)
            handle.terminate(signal: SIGTERM)
        }
        // Stopped by the call, not by the sleep's end: a broken stop would leave this waiting 600 s.
        let outcome = Result { try LaunchBrokerClient.launch(request, socket: broker.socketPath) }
        if case .success(let result) = outcome { #expect(result.exitCode != 0) }
        #expect(eventuallyTrue(seconds: 60) { broker.openConnections == 0 }, "the stopped run's connection stayed open")
        // A handle stopped before the call starts stops it at once.
        let early = LaunchHandle()
        early.terminate(signal: SIGTERM)
        request.handle = early
        if case .success(let result) = Result(catching: { try LaunchBrokerClient.launch(request, socket: broker.socketPath) }) {
            #expect(result.exitCode != 0)
        }
        #expect(eventuallyTrue(seconds: 60) { broker.openConnections == 0 }, "the early-stopped run's connection stayed open")
    }

    @Test("a socket in a base too long for a socket address is not made there")
    func socketFitsItsAddress() {
        #expect(LaunchBroker.socketFits(in: "/tmp/sentinel-brokers-0"))
        let long = "/" + String(repeating: "d", count: 60)
        #expect(!LaunchBroker.socketFits(in: long))
        // The bound is the address's: the longest base that fits, and one byte more.
        var base = "/"
        while LaunchBroker.socketFits(in: base + "x") { base += "x" }
        let path = base + "/sentinel-broker-\(getpid())-" + String(repeating: "0", count: 16) + "/broker.sock"
        #expect(path.utf8.count == 107)
    }

    @Test("a broker's socket directory is held for its life: one whose process is gone is removed by the next broker, a live one's is not")
    func socketDirectoriesOfGoneBrokersAreSwept() throws {
        let scratch = try Scratch()
        let base = scratch.root + "/tmp"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        // What a broker killed with -9 leaves: its directory, its lock gone with its process.
        let gone = base + "/sentinel-broker-4242-dead"
        try FileManager.default.createDirectory(atPath: gone, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        var services = LaunchBroker.Services(policy: scratch.policy())
        services.scratchBase = base
        let live = try LaunchBroker(services: services)
        #expect(!FileManager.default.fileExists(atPath: gone))
        let next = try LaunchBroker(services: services)
        #expect(FileManager.default.fileExists(atPath: live.socketPath) && FileManager.default.fileExists(atPath: next.socketPath))
        live.stop()
        next.stop()
        #expect(try FileManager.default.contentsOfDirectory(atPath: base) == [])
    }

    @Test(
        "a write that claims more than its bound is refused before its body is read; connections are capped",
        .enabled(if: TestHost.canSandbox, "needs root"))
    func brokerBoundsItsCalls() throws {
        let scratch = try Scratch()
        var services = LaunchBroker.Services(policy: scratch.policy(), slots: ["output": { _ in }])
        services.maxWrite = 1024
        services.concurrentConnections = 2
        let broker = try LaunchBroker(services: services)
        defer { broker.stop() }
        let message = Self.refusal { try LaunchBrokerClient.write(slot: "output", Data(count: 4096), socket: broker.socketPath) }
        #expect(message != nil, "a 4 KiB write passed a 1 KiB bound")
        // The refused call's slot is given back when its thread ends, which the client's answer
        // may precede: until then an idle connection below would be the one turned away.
        #expect(eventuallyTrue(seconds: 60) { broker.openConnections == 0 }, "the refused call's slot was not given back")
        // Two idle connections hold the cap; a third is closed unanswered, and a call gets through
        // again once they are gone.
        let idle = (0..<2).map { _ in csys_unix_connect(broker.socketPath) }
        #expect(eventuallyTrue(seconds: 60) { broker.openConnections == 2 }, "the two idle connections were not both taken in")
        #expect(Self.refusal { try LaunchBrokerClient.write(slot: "output", Data(count: 8), socket: broker.socketPath) } != nil)
        idle.forEach { close($0) }
        // The broker frees the slots when its threads see the hang-ups, on a loaded machine later
        // than here: a call gets through within a bound far above that, or the cap leaks.
        let deadline = MonotonicClock.nanoseconds() + 60_000_000_000
        var passed = false
        while !passed && MonotonicClock.nanoseconds() < deadline {
            passed = (try? LaunchBrokerClient.write(slot: "output", Data(count: 8), socket: broker.socketPath)) != nil
            if !passed { usleep(50_000) }
        }
        #expect(passed, "the cap stayed full after its connections were closed")
    }

    @Test("a frame that claims more than the bound is refused before anything is allocated")
    func oversizedFrameIsRefused() throws {
        var fds: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        let sender = BrokerChannel(fd: fds[0])
        let receiver = BrokerChannel(fd: fds[1])
        let header = try JSONEncoder().encode(BrokerCall.write(slot: "output"))
        let frame = LittleEndian.bytes(UInt64(header.count)) + LittleEndian.bytes(UInt64(1) << 60) + [UInt8](header)
        _ = frame.withUnsafeBytes { write(sender.fd, $0.baseAddress, $0.count) }
        let message = Self.refusal { _ = try receiver.receive(BrokerCall.self, maxBody: 1024) }
        #expect(message?.contains("a body of") == true, "\(message ?? "accepted")")
    }
}

/// Polls `condition` every 20 ms for up to `seconds`; whether it became true.
func eventuallyTrue(seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = MonotonicClock.nanoseconds() + UInt64(seconds * 1_000_000_000)
    while MonotonicClock.nanoseconds() < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}
