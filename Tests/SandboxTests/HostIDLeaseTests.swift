import Foundation
import Support
import Synchronization
import Testing

@testable import Sandbox

#if canImport(Glibc)
    import Glibc
#endif

/// The range root launchers take their payloads' host ids from, and the leases that keep two
/// concurrent sandboxes from ever sharing one.
@Suite struct HostIDLeaseTests {
    static let start: UInt32 = 0x7000_0000

    /// A private run directory (what /run/sentinel is to a root launcher).
    let parent = TemporaryDirectory("sentinel-ids")
    var directory: String { parent.path + "/run" }

    private func lease(
        _ count: UInt32, first: UInt32 = 0, isAssigned: @escaping @Sendable (UInt32) -> Bool = { _ in false }
    ) throws
        -> HostIDLease
    {
        try HostIDLease.acquire(
            range: HostIDRange(start: Self.start, count: count), directory: directory, first: first,
            isAssigned: isAssigned)
    }

    @Test func theStandardRangeIsUsedUnlessTheOperatorSetsOne() throws {
        #expect(try HostIDRange.configured([:]) == .standard)
        #expect(try HostIDRange.configured(["SENTINEL_ID_RANGE": ""]) == .standard)
        #expect(HostIDRange.standard == HostIDRange(start: 1_879_048_192, count: 65536))
        #expect(try HostIDRange.configured(["SENTINEL_ID_RANGE": "200000:100"]) == HostIDRange(start: 200_000, count: 100))
        #expect(try HostIDRange.parse("2147418112:65536").contains(2_147_483_647))
    }

    @Test(
        "a malformed or unsafe range is an input error naming the variable",
        arguments: [
            "abc", "1879048192", "1879048192:", ":5", "1879048192:0", "0:65536", "65535:2", "1000:10",
            "2147483647:2", "4294901760:65536", "1879048192:-1", "0x70000000:16", " 1879048192:16",
            "1879048192:16:1", "99999999999999999999:1",
        ])
    func badRange(text: String) {
        #expect {
            try HostIDRange.parse(text)
        } throws: { error in
            let error = error as? SentinelError
            return error?.code == .invalidInput && error?.message.hasPrefix("SENTINEL_ID_RANGE=\(text): ") == true
        }
    }

    /// Probing starts at `first` and wraps; held ids are skipped, and released ones come back.
    @Test func leasesNeverShareAnIDAndReleaseOnClose() throws {
        var first: HostIDLease? = try lease(3, first: 2)
        #expect(first?.id == Self.start + 2)
        let second = try lease(3, first: 2)
        #expect(second.id == Self.start)
        let third = try lease(3, first: 2)
        #expect(third.id == Self.start + 1)
        #expect {
            try lease(3)
        } throws: { error in
            let message = (error as? SentinelError)?.message ?? ""
            return (error as? SentinelError)?.code == .sandboxSetup
                && message.contains("no free host id in 1879048192..1879048194: 3 held by running sandboxes")
        }
        first = nil
        #expect(try lease(3).id == Self.start + 2)
        withExtendedLifetime((second, third)) {}
    }

    /// Ids the user or group database names are skipped (and counted in the error).
    @Test func assignedIDsAreSkipped() throws {
        let assigned: @Sendable (UInt32) -> Bool = { $0 == Self.start }
        let only = try lease(2, isAssigned: assigned)
        #expect(only.id == Self.start + 1)
        #expect {
            try lease(2, isAssigned: assigned)
        } throws: { error in
            ((error as? SentinelError)?.message ?? "").contains("1 held by running sandboxes, 1 known to the user or group database")
        }
        #expect(UserDatabase.knows(0))
        withExtendedLifetime(only) {}
    }

    /// The database is asked during the launch: a launch whose id it names is abandoned and
    /// started again on another id, and the abandoned id stays held until `with` returns.
    @Test func aLaunchOnAnAssignedIDStartsAgainOnAnother() throws {
        let range = HostIDRange(start: Self.start, count: 3)
        let assigned: @Sendable (UInt32) -> Bool = { $0 == Self.start }
        var launched: [UInt32] = []
        let released = try HostIDLease.with(range: range, directory: directory, first: 0, isAssigned: assigned) { lease in
            launched.append(lease.id)
            try lease.confirmUnassigned()
            // The abandoned id is still held: no other lease can take it meanwhile.
            #expect(try self.lease(3, first: 0).id == Self.start + 2)
            return lease.id
        }
        #expect(launched == [Self.start, Self.start + 1])
        #expect(released == Self.start + 1)
        #expect(try lease(1, first: 0).id == Self.start)
    }

    /// After `abandonedLaunchLimit` abandoned launches the database is asked while probing, so
    /// a range the database fills ends with the error that counts the assigned ids.
    @Test func manyAssignedIDsAreProbedBeforeTheLaunch() throws {
        let limit = HostIDLease.abandonedLaunchLimit
        let count = UInt32(limit + 2)
        let free = Self.start + count - 1
        var launched: [UInt32] = []
        let id = try HostIDLease.with(
            range: HostIDRange(start: Self.start, count: count), directory: directory, first: 0,
            isAssigned: { $0 != free }
        ) { lease in
            launched.append(lease.id)
            try lease.confirmUnassigned()
            return lease.id
        }
        #expect(id == free)
        #expect(launched == (0..<UInt32(limit)).map { Self.start + $0 } + [free])

        #expect {
            try HostIDLease.with(
                range: HostIDRange(start: Self.start, count: count), directory: directory, first: 0,
                isAssigned: { _ in true }
            ) { try $0.confirmUnassigned() }
        } throws: { error in
            ((error as? SentinelError)?.message ?? "").contains("known to the user or group database")
        }
    }

    /// Threads of one process, each with its own descriptor, exclude each other.
    @Test func concurrentLeasesAreDistinct() throws {
        let count = 16
        let ids = Mutex<[UInt32]>([])
        let leases = Mutex<[HostIDLease]>([])
        let directory = directory
        DispatchQueue.concurrentPerform(iterations: count) { index in
            guard
                let lease = try? HostIDLease.acquire(
                    range: HostIDRange(start: Self.start, count: UInt32(count)), directory: directory,
                    first: UInt32(index % 3), isAssigned: { _ in false })
            else { return }
            ids.withLock { $0.append(lease.id) }
            leases.withLock { $0.append(lease) }
        }
        let taken = ids.withLock { $0 }
        #expect(taken.count == count && Set(taken).count == count, "\(taken)")
    }

    /// The lock file is never followed through a link, and only a private file of ours is used.
    @Test func aPlantedLockFileIsRefused() throws {
        try NewRootDirectory.ensurePrivateDirectory(directory)
        let victim = parent.path + "/victim"
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        let lockPath = directory + "/" + HostIDLease.lockFileName
        try FileManager.default.createSymbolicLink(atPath: lockPath, withDestinationPath: victim)
        #expect(throws: SentinelError.self) { try lease(4) }
        #expect((try? String(contentsOfFile: victim, encoding: .utf8)) == "precious\n")

        unlink(lockPath)
        #expect(link(victim, lockPath) == 0)
        chmod(victim, 0o600)
        #expect(throws: SentinelError.self) { try lease(4) }  // two names: someone else holds one

        unlink(lockPath)
        #expect(FileManager.default.createFile(atPath: lockPath, contents: nil))
        chmod(lockPath, 0o644)
        #expect(throws: SentinelError.self) { try lease(4) }  // readable by others
        chmod(lockPath, 0o600)
        #expect(try lease(4).id >= Self.start)

        chmod(directory, 0o755)
        #expect(throws: SentinelError.self) { try lease(4) }  // the directory is not private
    }
}
