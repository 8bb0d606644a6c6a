import Support

/// The uid/gid maps of the sandbox's user namespace.
///
/// A root launcher maps inside 0 to host 0 for the init alone (it builds the root and never
/// runs payload code), and the payload's ids to a host id of its own: `HostIDLease` holds one
/// of the `HostIDRange` for each concurrent sandbox, so no two sandboxes (and no host user)
/// share what the kernel counts per host uid (epoll watches, pipe pages, unix fds in flight,
/// inotify's per-user share). No payload ever holds host uid 0. The payload's inside ids stay
/// the profile's (65534 by default): only the host side differs. A workspace owned by someone
/// else is made readable (and, for `rw`/`overlay`, writable) by an idmapped mount
/// (`WorkspaceMount.idShift`), not by sharing its owner's ids; `ro` and `overlay` put an
/// overlay in front of it, so owning what the mount shows opens no host socket, FIFO or lease.
/// `setgroups` stays allowed so the payload can shed the launcher's supplementary groups.
///
/// An unprivileged launcher can map only itself (its uid to the payload's inside uid) and must
/// deny `setgroups`: its sandboxes share its own host uid, and its own quotas.
public struct IdentityMaps: Sendable, Equatable {
    /// The `uid_map` contents, one `inside host count` line per range.
    public var uidMap: String
    /// The `gid_map` contents, one `inside host count` line per range.
    public var gidMap: String
    /// Whether `setgroups` is denied (required for an unprivileged launcher).
    public var denySetgroups: Bool
    /// The payload's ids inside the namespace.
    public var uid: UInt32
    /// The payload's gid inside the namespace.
    public var gid: UInt32
    /// The payload's ids on the host.
    public var hostUID: UInt32
    /// The payload's gid on the host.
    public var hostGID: UInt32

    /// The host id of a root launcher's payload when the plan is made without a lease (tests,
    /// `sandbox check`): `nobody`. `SandboxSession` always passes its lease's id.
    public static let unleasedPayloadHostID: UInt32 = 65534

    /// Throws when a root launcher would have to give the payload inside id 0, which the init holds.
    /// `payloadHostID`: the host uid and gid a root launcher's payload gets (a `HostIDLease`'s).
    public static func make(
        hostUID: UInt32, hostGID: UInt32, insideUID: UInt32, insideGID: UInt32,
        payloadHostID: UInt32? = nil
    ) throws -> IdentityMaps {
        guard hostUID == 0 else {
            return IdentityMaps(
                uidMap: "\(insideUID) \(hostUID) 1\n", gidMap: "\(insideGID) \(hostGID) 1\n",
                denySetgroups: true, uid: insideUID, gid: insideGID, hostUID: hostUID,
                hostGID: hostGID)
        }
        guard insideUID != 0, insideGID != 0 else {
            throw SentinelError(
                .invalidInput,
                "profile user \(insideUID):\(insideGID): id 0 is the sandbox init's; the payload needs another uid and gid")
        }
        let host = payloadHostID ?? unleasedPayloadHostID
        guard host != 0 else { throw SentinelError(.invalidInput, "host id 0 is root's; the payload needs another") }
        return IdentityMaps(
            uidMap: "0 0 1\n\(insideUID) \(host) 1\n", gidMap: "0 0 1\n\(insideGID) \(host) 1\n",
            denySetgroups: false, uid: insideUID, gid: insideGID, hostUID: host, hostGID: host)
    }
}
