#if canImport(Glibc)
    import Glibc
#endif
import CSystem
import Egress
import FoundationEssentials
import Support
import Synchronization

/// The root launcher's side of an analysis run: a socket, bound into the analysis sandbox and
/// nowhere else (it lies in a directory only root may enter), on which the analysis asks for
/// the three things it cannot do itself: launch a sandbox (`BrokerPolicy` decides), write an
/// output the launcher prepared, and open a file the launcher named. Nothing a call carries is
/// parsed beyond its JSON header; written bytes are copied, not read.
public final class LaunchBroker: Sendable {
    /// What the analysis may ask for besides launches.
    public struct Services: Sendable {
        /// Checks and completes launches.
        public var policy: BrokerPolicy
        /// Outputs by name: each receives the bytes of one write (the last write wins).
        public var slots: [String: @Sendable (Data) throws -> Void]
        /// Files by name, opened read-only (following no link at their name) when asked for.
        public var resources: [String: String]
        /// Listening sockets root made for the analysis (DAST's canary on the host's side), by
        /// name: each ask gets a duplicate; root never reads what they receive.
        public var sockets: [String: Int32] = [:]
        /// The most bytes one write may carry (one write's body is held at a time).
        public var maxWrite: Int = 512 << 20
        /// The most bytes a launch's stdin may carry.
        public var maxInput: Int = 16 << 20
        /// Launches at once; a further call waits for one to end.
        public var concurrentLaunches = 4
        /// Connections at once; a further one is closed unanswered.
        public var concurrentConnections = 16
        /// Seconds a connection may send or take nothing before it is dropped.
        public var idleSeconds = 120
        /// Where the socket's directory is made (`$TMPDIR`, else /tmp).
        public var scratchBase = ScratchDirectory.defaultBase

        /// Services over `policy` with no outputs and no files.
        public init(policy: BrokerPolicy, slots: [String: @Sendable (Data) throws -> Void] = [:], resources: [String: String] = [:]) {
            self.policy = policy
            self.slots = slots
            self.resources = resources
        }
    }

    /// The environment variable that tells the analysis where the socket is.
    public static let environmentVariable = "SENTINEL_LAUNCH_BROKER"

    /// The socket's path (bind it read-only into the analysis sandbox at the same path).
    public let socketPath: String
    private let directory: String
    private let listener: Int32
    private let wake: (read: Int32, write: Int32)
    private let services: Services
    /// How many launches run at once.
    private let launchSlots: MonotonicSemaphore
    private let writeSlot = MonotonicSemaphore(value: 1)
    private let connections = Atomic(0)
    /// Connections being served now (tests wait for a closed one's slot to be given back).
    var openConnections: Int { connections.load(ordering: .sequentiallyConsistent) }
    private let thread: Mutex<pthread_t?> = Mutex(nil)

    /// What the socket directories' names start with.
    static let directoryPrefix = "sentinel-broker-"

    /// Whether a broker's socket made in `base` has a path a socket address can hold (107 bytes
    /// and its terminator): `base/sentinel-broker-PID-<16 hex digits>/broker.sock`.
    public static func socketFits(in base: String) -> Bool {
        (base + "/" + directoryPrefix + "\(getpid())-" + String(repeating: "0", count: 16) + "/broker.sock").utf8.count < 108
    }

    /// Makes the socket in a new private directory and starts serving it on a thread of its own.
    /// The directory is locked for the broker's life: those of brokers whose process is gone
    /// (killed with -9 mid-scan) are removed first.
    public init(services: Services) throws {
        self.services = services
        ScratchDirectory.sweepUnheld(in: services.scratchBase, prefix: Self.directoryPrefix)
        directory = try ScratchDirectory.makeHeld(prefix: Self.directoryPrefix + "\(getpid())-", in: services.scratchBase)
        socketPath = directory + "/broker.sock"
        let fd = csys_unix_listen(socketPath)
        guard fd >= 0 else {
            let error = Errno.current
            ScratchDirectory.remove(directory)
            throw SentinelError(.sandboxSetup, "\(socketPath): cannot listen: \(error)", errno: error)
        }
        // Reachable only through the bind: the directory is root's, mode 0700.
        chmod(socketPath, 0o666)
        listener = fd
        var fds: [Int32] = [-1, -1]
        guard csys_pipe2(&fds, O_CLOEXEC) == 0 else {
            close(fd)
            unlink(socketPath)
            ScratchDirectory.remove(directory)
            throw SentinelError(.sandboxSetup, "launch broker: cannot make a pipe: \(Errno.current)", errno: .current)
        }
        wake = (fds[0], fds[1])
        launchSlots = MonotonicSemaphore(value: max(1, services.concurrentLaunches))
        let started = PosixThread.spawn(joinable: true) { [self] in acceptLoop() }
        guard let started else {
            stop()
            throw SentinelError(.sandboxSetup, "launch broker: cannot start its thread")
        }
        thread.withLock { $0 = started }
    }

    /// Stops accepting calls and removes the socket. Calls in progress end with their runs.
    public func stop() {
        _ = retryingOnInterrupt { write(wake.write, "x", 1) }
        if let running = thread.withLock({ value -> pthread_t? in
            defer { value = nil }
            return value
        }) {
            pthread_join(running, nil)
        }
        close(listener)
        close(wake.write)
        close(wake.read)
        unlink(socketPath)
        ScratchDirectory.remove(directory)
    }

    private func acceptLoop() {
        var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
        while true {
            guard case .success = retryingOnInterrupt({ poll(&fds, 2, -1) }) else { return }
            if fds[1].revents != 0 { return }
            guard fds[0].revents & Int16(POLLIN) != 0 else { continue }
            let connection = csys_accept4(listener, O_CLOEXEC)
            guard connection >= 0 else {
                // Out of descriptors or memory: wait rather than spin on a listener still readable.
                if [EMFILE, ENFILE, ENOMEM, ENOBUFS].contains(Errno.current.rawValue) { usleep(100_000) }
                continue
            }
            let channel = BrokerChannel(fd: connection)
            guard connections.add(1, ordering: .sequentiallyConsistent).newValue <= services.concurrentConnections else {
                connections.subtract(1, ordering: .sequentiallyConsistent)
                continue
            }
            channel.setTimeouts(seconds: services.idleSeconds)
            if PosixThread.spawn({ [self] in
                serve(channel)
                connections.subtract(1, ordering: .sequentiallyConsistent)
            }) == nil {
                connections.subtract(1, ordering: .sequentiallyConsistent)
            }
        }
    }

    private func serve(_ channel: BrokerChannel) {
        do {
            let services = self.services
            var holdingWrite = false
            defer { if holdingWrite { writeSlot.signal() } }
            let received = try channel.receive(
                BrokerCall.self,
                maxBody: { call in
                    switch call {
                    case .write: services.maxWrite
                    case .launch(let launch): launch.hasInput ? services.maxInput : 0
                    case .open: 0
                    }
                },
                beforeBody: { [writeSlot] call in
                    if case .write = call {
                        writeSlot.wait()
                        holdingWrite = true
                    }
                })
            guard let call = received else { return }
            if let stray = call.descriptor { close(stray) }
            switch call.header {
            case .write(let slot):
                guard let sink = services.slots[slot] else {
                    throw SentinelError(.invalidInput, "launch broker: no output named \(slot)")
                }
                try sink(call.body)
                try channel.send(BrokerReply.done)
            case .open(let resource):
                if let socket = services.sockets[resource] {
                    let duplicate = fcntl(socket, F_DUPFD_CLOEXEC, 0)
                    guard duplicate >= 0 else { throw SentinelError(.io, "launch broker: cannot lend \(resource): \(Errno.current)") }
                    defer { close(duplicate) }
                    try channel.send(BrokerReply.done, descriptor: duplicate)
                    return
                }
                guard let path = services.resources[resource] else {
                    throw SentinelError(.invalidInput, "launch broker: no file named \(resource)")
                }
                let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
                guard fd >= 0 else {
                    throw SentinelError(.io, "\(path): cannot open: \(Errno.current)", errno: .current)
                }
                defer { close(fd) }
                var info = stat()
                guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                    throw SentinelError(.io, "\(path): not a regular file")
                }
                try channel.send(BrokerReply.done, descriptor: fd)
            case .launch(let launch):
                let run = try launchSlots.holding { try self.launch(launch, input: launch.hasInput ? call.body : nil, channel: channel) }
                try channel.send(BrokerReply.launched(run.reply), body: run.output)
            }
        } catch let error as SentinelError {
            try? channel.send(BrokerReply(error))
        } catch {
            try? channel.send(BrokerReply(SentinelError(.io, "launch broker: \(error)")))
        }
    }

    private func launch(_ launch: BrokeredLaunch, input: Data?, channel: BrokerChannel) throws -> (reply: BrokeredRun, output: Data) {
        var (request, held) = try services.policy.request(for: launch, input: input)
        defer { held.forEach { close($0) } }
        let told = Mutex<(notices: [String], warnings: [String], denied: [EgressRecord])>(([], [], []))
        request.onNotice = { notice in told.withLock { $0.notices.append(notice) } }
        request.onWarning = { warning in told.withLock { $0.warnings.append(warning) } }
        request.onEgressDenied = { record in told.withLock { $0.denied.append(record) } }
        // The analysis hanging up (it ended, or gave up on the run) stops the run.
        let handle = LaunchHandle()
        request.handle = handle
        // The watcher sleeps until the analysis hangs up or the run ends (a byte on `ended`):
        // a poll with a timeout held every reply back until it expired (100 ms on average).
        var ended: [Int32] = [-1, -1]
        guard csys_pipe2(&ended, O_CLOEXEC) == 0 else {
            throw SentinelError(.sandboxSetup, "launch broker: cannot make a pipe: \(Errno.current)", errno: .current)
        }
        defer { ended.forEach { close($0) } }
        let endedRead = ended[0]
        let watcher = PosixThread.spawn(joinable: true) {
            var fds = [
                pollfd(fd: channel.fd, events: Int16(POLLIN) | LinuxFlags.pollPeerHangUp, revents: 0),
                pollfd(fd: endedRead, events: Int16(POLLIN), revents: 0),
            ]
            guard case .success = retryingOnInterrupt({ poll(&fds, 2, -1) }), fds[1].revents == 0, fds[0].revents != 0 else { return }
            handle.terminate(signal: SIGKILL)
        }
        defer {
            var byte: UInt8 = 1
            _ = write(ended[1], &byte, 1)
            if let watcher { pthread_join(watcher, nil) }
        }
        let result = try SandboxSession.run(request)
        let collected = told.withLock { $0 }
        return (
            BrokeredRun(result, notices: collected.notices, warnings: collected.warnings, denied: collected.denied),
            result.stdout + result.stderr
        )
    }
}
