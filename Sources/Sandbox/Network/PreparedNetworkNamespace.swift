import CSandbox
import Support

#if canImport(Glibc)
    import Glibc
#endif

/// The sandbox's network namespace, made by a root launcher on a thread of its own while the
/// launch is still being planned (`sbx_network_start`): the namespace, its loopback (up, with
/// `NetworkNamespaceLimits`' MTU), the egress proxy's listener and its `/proc/sys/net` settings.
/// Made at the clone instead, as an unprivileged launcher's is, it cost ~0.6 ms on the launch's
/// critical path (the namespace, then the init's loopback and settings).
///
/// It belongs to the host's user namespace, not the sandbox's: the init and payload hold no
/// capability over it, so they can change neither its loopback nor its settings nor its
/// netfilter tables. The `Launcher` enters it for the clone only. One launch uses it, on the
/// thread that runs the launch.
final class PreparedNetworkNamespace: @unchecked Sendable {
    private let job: UnsafeMutablePointer<sbx_network_job>
    private let strings = CStringArena()
    private let settings: [NamespaceSysctl]
    private var outcome: Result<(namespace: Int32, proxy: Int32), SentinelError>?

    /// Starts making it when this launcher runs as root; nil otherwise (the clone makes the
    /// namespace in the sandbox's own user namespace then). `proxyPort` 0: no listener.
    static func start(
        loopbackMTU: UInt32, proxyPort: Int, settings: [NamespaceSysctl]
    ) -> PreparedNetworkNamespace? {
        geteuid() == 0 ? PreparedNetworkNamespace(loopbackMTU: loopbackMTU, proxyPort: proxyPort, settings: settings) : nil
    }

    /// The launcher's own network namespace, held for one launch that shares it: the clone
    /// enters it as it would a prepared one, so the init neither makes a namespace nor changes
    /// this one's loopback or settings (it holds no capability over it).
    static func host() throws -> PreparedNetworkNamespace {
        let fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw SentinelError(.sandboxSetup, "/proc/thread-self/ns/net: cannot open: \(Errno.current)", errno: .current)
        }
        return PreparedNetworkNamespace(holding: fd)
    }

    /// A pod's namespace, for one launch that joins it: entered for the clone like a prepared
    /// one; the init neither makes a namespace nor changes the pod's loopback or settings.
    static func joining(_ pod: NetworkPod) throws -> PreparedNetworkNamespace {
        PreparedNetworkNamespace(holding: try pod.duplicateNamespace())
    }

    private init(holding namespace: Int32) {
        settings = []
        job = .allocate(capacity: 1)
        job.initialize(to: sbx_network_job())
        outcome = .success((namespace, -1))
    }

    private init(loopbackMTU: UInt32, proxyPort: Int, settings: [NamespaceSysctl]) {
        self.settings = settings
        job = .allocate(capacity: 1)
        job.initialize(to: sbx_network_job())
        job.pointee.loopback_mtu = loopbackMTU
        job.pointee.proxy_port = Int32(proxyPort)
        job.pointee.sysctls = UnsafePointer(
            strings.buffer(settings.map { sbx_sysctl(path: strings.copy($0.path), value: strings.copy($0.value)) }))
        job.pointee.sysctl_count = settings.count
        if sbx_network_start(job) != 0 { outcome = .failure(error(job.pointee.failure)) }
    }

    /// Waits for the thread. The namespace's descriptor and the proxy's listener (-1 for none)
    /// stay this object's until `takeProxyListener()`; throws `SentinelError.sandboxSetup`
    /// naming the stage that failed.
    func descriptors() throws(SentinelError) -> (namespace: Int32, proxy: Int32) {
        if outcome == nil {
            outcome =
                sbx_network_join(job) == 0
                ? .success((job.pointee.netns_fd, job.pointee.proxy_fd)) : .failure(error(job.pointee.failure))
        }
        return try outcome!.get()
    }

    /// Closes the namespace's descriptor once the init lives in the namespace: it ends with
    /// the sandbox then.
    func closeNamespace() {
        guard case .success(let descriptors) = outcome, descriptors.namespace >= 0 else { return }
        close(descriptors.namespace)
        outcome = .success((-1, descriptors.proxy))
    }

    /// Hands the proxy's listener over to the caller, who closes it from then on; -1 for none.
    func takeProxyListener() -> Int32 {
        guard case .success(let descriptors) = outcome, descriptors.proxy >= 0 else { return -1 }
        outcome = .success((descriptors.namespace, -1))
        return descriptors.proxy
    }

    private func error(_ failure: sbx_failure) -> SentinelError {
        let detail =
            failure.stage == Int32(SBX_STAGE_SYSCTLS.rawValue) && failure.index >= 0 && Int(failure.index) < settings.count
            ? settings[Int(failure.index)].path : nil
        return .sandboxSetup(failure, detail: detail)
    }

    deinit {
        // A launch that failed before the clone still waits for the thread it started.
        let descriptors = (try? descriptors()) ?? (namespace: -1, proxy: -1)
        if descriptors.namespace >= 0 { close(descriptors.namespace) }
        if descriptors.proxy >= 0 { close(descriptors.proxy) }
        job.deinitialize(count: 1)
        job.deallocate()
    }
}
