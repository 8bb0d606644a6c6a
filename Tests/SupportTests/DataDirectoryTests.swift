import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@testable import Support
import TestSupport

/// The lookup of shipped data: an installed prefix (wherever it was moved), then the checkout
/// the binary was built in.
@Suite struct DataDirectoryTests {
    static func temporary() throws -> String { try TemporaryDirectory.make("data") }

    static func make(_ path: String, marker: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: path + "/" + marker, contents: Data())
    }

    @Test func anInstalledPrefixIsFoundBesideTheBinary() throws {
        let root = try Self.temporary()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Self.make(root + "/prefix/share/sentinel/profiles", marker: "minimal.yaml")
        let found = DataDirectory.candidates(
            named: "profiles", containing: "minimal.yaml",
            executable: root + "/prefix/bin/sentinel")
        #expect(found.first == root + "/prefix/share/sentinel/profiles")
    }

    @Test func aCheckoutIsFoundAboveTheBuildDirectory() throws {
        let root = try Self.temporary()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Self.make(root + "/checkout/rules/python", marker: "x.yaml")
        try FileManager.default.createDirectory(atPath: root + "/checkout/.build/debug", withIntermediateDirectories: true)
        let found = DataDirectory.directory(
            named: "rules", containing: "python",
            executable: root + "/checkout/.build/debug/sentinel")
        #expect(found == root + "/checkout/rules")
    }

    /// An installed tree inside a checkout uses its own data, not the checkout's.
    @Test func thePrefixWinsOverAnEnclosingCheckout() throws {
        let root = try Self.temporary()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Self.make(root + "/rules/python", marker: "x.yaml")
        try Self.make(root + "/stage/usr/share/sentinel/rules/python", marker: "x.yaml")
        let found = DataDirectory.candidates(
            named: "rules", containing: "python",
            executable: root + "/stage/usr/bin/sentinel")
        #expect(Array(found.prefix(2)) == [root + "/stage/usr/share/sentinel/rules", root + "/rules"])
    }

    @Test func aDirectoryWithoutTheMarkerIsSkipped() throws {
        let root = try Self.temporary()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(
            atPath: root + "/prefix/share/sentinel/profiles",
            withIntermediateDirectories: true)
        let found = DataDirectory.candidates(
            named: "profiles", containing: "minimal.yaml",
            executable: root + "/prefix/bin/sentinel")
        #expect(!found.contains { $0.hasPrefix(root) })
    }

    /// Red-team R1: a copy of the binaries in a tree another user owns (under /tmp, say) must not
    /// take its profiles or rules from her: her `minimal.yaml` turned seccomp off, her empty
    /// `rules/python` made a scan pass. Neither the installed-prefix nor the checkout candidate of
    /// such a tree is used, whoever made the directories below hers.
    @Test func dataInATreeAnotherUserOwnsIsSkipped() throws {
        let root = try Self.temporary()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Self.make(root + "/theirs/share/sentinel/profiles", marker: "minimal.yaml")
        try Self.make(root + "/theirs/rules/python", marker: "x.yaml")
        try FileManager.default.createDirectory(atPath: root + "/theirs/bin", withIntermediateDirectories: true)
        #expect(chown(root + "/theirs", 65534, 65534) == 0)
        let profiles = DataDirectory.candidates(
            named: "profiles", containing: "minimal.yaml", executable: root + "/theirs/bin/sentinel")
        #expect(!profiles.contains { $0.hasPrefix(root) }, "\(profiles)")
        let rules = DataDirectory.candidates(named: "rules", containing: "python", executable: root + "/theirs/bin/sentinel")
        #expect(!rules.contains { $0.hasPrefix(root) }, "\(rules)")
    }

    /// The data directory itself, or any directory above it, writable by group or others (and not
    /// a sticky directory above it) is skipped too: anyone could have put the data there.
    @Test(arguments: ["", "/share", "/share/sentinel/profiles"])
    func dataUnderAGroupOrWorldWritableDirectoryIsSkipped(writable: String) throws {
        let root = try Self.temporary()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Self.make(root + "/prefix/share/sentinel/profiles", marker: "minimal.yaml")
        #expect(chmod(root + "/prefix" + writable, writable.isEmpty ? 0o777 : 0o775) == 0)
        let found = DataDirectory.candidates(
            named: "profiles", containing: "minimal.yaml", executable: root + "/prefix/bin/sentinel")
        #expect(!found.contains { $0.hasPrefix(root) }, "\(found)")
    }

    /// A sticky world-writable directory someone else owns is as bad as hers: she may rename what
    /// sits in it. (Root's own sticky /tmp above a tree root made is fine: see the tests above,
    /// whose trees all sit in it.)
    @Test func dataBelowAStickyDirectoryAnotherUserOwnsIsSkipped() throws {
        let root = try Self.temporary()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Self.make(root + "/shared/prefix/share/sentinel/profiles", marker: "minimal.yaml")
        #expect(chown(root + "/shared", 65534, 65534) == 0)
        #expect(chmod(root + "/shared", 0o1777) == 0)
        let found = DataDirectory.candidates(
            named: "profiles", containing: "minimal.yaml", executable: root + "/shared/prefix/bin/sentinel")
        #expect(!found.contains { $0.hasPrefix(root) }, "\(found)")
    }

    @Test func theRunningExecutableIsTheTestBinary() throws {
        let path = try #require(DataDirectory.runningExecutable())
        #expect(path.hasPrefix("/"))
        #expect(FileManager.default.isExecutableFile(atPath: path))
    }
}
