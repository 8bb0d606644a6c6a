#if canImport(Glibc)
    import Glibc
#endif
import Support
import Synchronization

/// A network namespace that several launches join, made by a root launcher: a loopback (up),
/// this namespace's settings, and one listener root keeps (`listener`, on 127.0.0.1 at the
/// port it was made with). Its members reach each other on 127.0.0.1 and nothing else: there
/// is no other interface and no proxy. `sentinel scan --prove` starts the application in one
/// sandbox and the web worker in another, both members of one pod: the worker's only peer is
/// the application, the application has no way out at all, and the listener is the canary an
/// SSRF probe makes the application fetch (root serves it from outside; nothing inside owns it).
///
/// Pods are named in one registry per process, so that a launch (direct or through the
/// `LaunchBroker`) names its pod and the launcher finds it; `close()` takes it out.
public final class NetworkPod: Sendable {
    /// The name launches join it by (`SandboxRequest.pod`).
    public let name: String
    /// The port of `listener` inside.
    public let listenerPort: UInt16
    private let descriptors: Mutex<(namespace: Int32, listener: Int32)>

    private static let registry = Mutex<[String: NetworkPod]>([:])

    /// Makes and registers a pod named `name` whose listener is 127.0.0.1:`listenerPort`
    /// inside. Throws `SentinelError(.sandboxSetup)` for an unprivileged launcher (its sandboxes
    /// each live in a user namespace of their own, whose network namespaces no sibling may
    /// enter) and for a name already registered.
    public static func open(name: String, listenerPort: UInt16) throws -> NetworkPod {
        guard
            let prepared = PreparedNetworkNamespace.start(
                loopbackMTU: NetworkNamespaceLimits.loopbackMTU, proxyPort: Int(listenerPort),
                settings: NetworkNamespaceLimits.make())
        else {
            throw SentinelError(
                .sandboxSetup, "a network shared by two sandboxes is made only by a root launcher (this one runs as uid \(geteuid()))")
        }
        let made = try prepared.descriptors()
        let namespace = fcntl(made.namespace, F_DUPFD_CLOEXEC, 0)
        let listener = prepared.takeProxyListener()
        guard namespace >= 0, listener >= 0 else {
            if namespace >= 0 { Glibc.close(namespace) }
            if listener >= 0 { Glibc.close(listener) }
            throw SentinelError(.sandboxSetup, "network pod \(name): cannot hold its namespace: \(Errno.current)", errno: .current)
        }
        let pod = NetworkPod(name: name, listenerPort: listenerPort, namespace: namespace, listener: listener)
        let added = registry.withLock { pods -> Bool in
            guard pods[name] == nil else { return false }
            pods[name] = pod
            return true
        }
        guard added else {
            pod.release()
            throw SentinelError(.sandboxSetup, "network pod \(name) exists already")
        }
        return pod
    }

    /// The registered pod named `name`.
    public static func named(_ name: String) -> NetworkPod? { registry.withLock { $0[name] } }

    private init(name: String, listenerPort: UInt16, namespace: Int32, listener: Int32) {
        self.name = name
        self.listenerPort = listenerPort
        descriptors = Mutex((namespace, listener))
    }

    /// A duplicate of the listener (the caller closes it); throws once the pod is closed.
    public func duplicateListener() throws -> Int32 {
        try duplicate(\.listener, what: "listener")
    }

    /// A duplicate of the namespace's descriptor, for one launch's clone.
    func duplicateNamespace() throws -> Int32 {
        try duplicate(\.namespace, what: "namespace")
    }

    private func duplicate(_ which: KeyPath<(namespace: Int32, listener: Int32), Int32>, what: String) throws -> Int32 {
        // Under the lock: a `close()` meanwhile would leave a number some other file may take.
        let (fd, copy) = descriptors.withLock { held -> (Int32, Int32) in
            let fd = held[keyPath: which]
            return (fd, fd >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 0) : -1)
        }
        guard fd >= 0 else { throw SentinelError(.sandboxSetup, "network pod \(name) is closed") }
        guard copy >= 0 else {
            throw SentinelError(.sandboxSetup, "network pod \(name): cannot duplicate its \(what): \(Errno.current)", errno: .current)
        }
        return copy
    }

    /// Takes the pod out of the registry and closes root's descriptors: the namespace lives on
    /// while a member does, and ends with the last.
    public func close() {
        Self.registry.withLock { pods in
            if pods[name] === self { pods[name] = nil }
        }
        release()
    }

    private func release() {
        let held = descriptors.withLock { value -> (Int32, Int32) in
            defer { value = (-1, -1) }
            return value
        }
        if held.0 >= 0 { Glibc.close(held.0) }
        if held.1 >= 0 { Glibc.close(held.1) }
    }

    deinit { release() }
}
