import Support

/// The uid/gid maps of the sandbox's user namespace.
///
/// A root launcher maps inside 0 to host 0 for the init alone (it builds the root and never
/// runs payload code), and the payload's ids to `nobody` on the host (65534), whatever the
/// workspace: no payload ever holds host uid 0. A writable workspace owned by someone else is
/// made writable by an idmapped mount (`WorkspaceMount.idShift`), not by sharing its owner's
/// ids. It leaves `setgroups` allowed so the payload can shed the launcher's supplementary
/// groups. An unprivileged launcher can map only itself and must deny `setgroups`.
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

    /// The host ids a root launcher gives every payload.
    public static let payloadHostID: UInt32 = 65534

    /// Throws when a root launcher would have to give the payload inside id 0, which the init holds.
    public static func make(hostUID: UInt32, hostGID: UInt32, insideUID: UInt32, insideGID: UInt32) throws
        -> IdentityMaps
    {
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
        let host = payloadHostID
        return IdentityMaps(
            uidMap: "0 0 1\n\(insideUID) \(host) 1\n", gidMap: "0 0 1\n\(insideGID) \(host) 1\n",
            denySetgroups: false, uid: insideUID, gid: insideGID, hostUID: host, hostGID: host)
    }
}
