import Foundation
import Testing

@testable import Support

/// The lookup of shipped data: an installed prefix (wherever it was moved), then the checkout
/// the binary was built in.
@Suite struct DataDirectoryTests {
    static func temporary() throws -> String {
        let path = NSTemporaryDirectory() + "sentinel-data-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

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

    @Test func theRunningExecutableIsTheTestBinary() throws {
        let path = try #require(DataDirectory.runningExecutable())
        #expect(path.hasPrefix("/"))
        #expect(FileManager.default.isExecutableFile(atPath: path))
    }
}
