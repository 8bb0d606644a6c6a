/// The uid/gid maps of the sandbox's user namespace.
///
/// A root launcher maps inside 0 to host 0 so the init can reach the paths it binds, and
/// maps the payload's uid to `nobody`, or to the workspace owner when the workspace is
/// writable, so files written keep their rightful owner. It leaves `setgroups` allowed so
/// the payload can shed the launcher's supplementary groups. An unprivileged launcher can
/// map only itself and must deny `setgroups`.
public struct IdentityMaps: Sendable, Equatable {
    public var uidMap: String
    public var gidMap: String
    public var denySetgroups: Bool
    /// The payload's ids inside the namespace.
    public var uid: UInt32
    public var gid: UInt32

    public static func make(hostUID: UInt32, hostGID: UInt32, insideUID: UInt32, insideGID: UInt32,
                            ownerUID: UInt32, ownerGID: UInt32) -> IdentityMaps {
        guard hostUID == 0 else {
            return IdentityMaps(uidMap: "\(insideUID) \(hostUID) 1\n", gidMap: "\(insideGID) \(hostGID) 1\n",
                                denySetgroups: true, uid: insideUID, gid: insideGID)
        }
        let (uidMap, uid) = rootMap(inside: insideUID, outside: ownerUID)
        let (gidMap, gid) = rootMap(inside: insideGID, outside: ownerGID)
        return IdentityMaps(uidMap: uidMap, gidMap: gidMap, denySetgroups: false, uid: uid, gid: gid)
    }

    /// Ranges may not overlap on either side: when the payload would need host 0 (or
    /// inside 0), it shares the init's mapping and runs as 0 with every capability gone.
    private static func rootMap(inside: UInt32, outside: UInt32) -> (String, UInt32) {
        if inside == 0 || outside == 0 {
            return ("0 0 1\n", 0)
        }
        return ("0 0 1\n\(inside) \(outside) 1\n", inside)
    }
}
