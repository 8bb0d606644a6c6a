import Foundation
import Testing

@testable import Store

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct StateDirectoryTests {
    @Test func sentinelHomeWins() {
        let state = StateDirectory.resolve(environment: ["SENTINEL_HOME": "/var/lib/sentinel"], currentDirectory: "/src")
        #expect(state.path == "/var/lib/sentinel")
        #expect(state.osvDatabase == "/var/lib/sentinel/osv.sqlite")
    }

    @Test func elseDotSentinelInTheCurrentDirectory() {
        for environment in [[:], ["SENTINEL_HOME": ""]] {
            let state = StateDirectory.resolve(environment: environment, currentDirectory: "/src/repo")
            #expect(state.path == "/src/repo/.sentinel")
            #expect(state.file("queue.sqlite") == "/src/repo/.sentinel/queue.sqlite")
        }
    }

    @Test func createsItPrivatelyAndIsIdempotent() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let state = StateDirectory(path: root + "/a/.sentinel")
        try state.create()
        try state.create()
        var info = stat()
        #expect(stat(state.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
    }
}
