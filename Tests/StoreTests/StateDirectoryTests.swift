import Foundation
import Support
import Testing

@testable import Store
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct StateDirectoryTests {
    @Test func sentinelHomeHoldsEverything() throws {
        let state = try StateDirectory.resolve(environment: [
            "SENTINEL_HOME": "/var/lib/sentinel", "HOME": "/home/u", "XDG_STATE_HOME": "/x/state",
        ])
        #expect(state.path == "/var/lib/sentinel")
        #expect(state.osvDatabase == "/var/lib/sentinel/osv.sqlite")
        #expect(state.file("heal.sqlite") == "/var/lib/sentinel/heal.sqlite")
    }

    /// Issue 27: never the current directory; durable state and the cache in the XDG defaults.
    @Test func elseTheXDGDefaultsUnderHome() throws {
        for environment in [["HOME": "/home/u"], ["HOME": "/home/u/", "SENTINEL_HOME": ""]] {
            let state = try StateDirectory.resolve(environment: environment)
            #expect(state.path == "/home/u/.local/state/sentinel")
            #expect(state.file("audit.jsonl") == "/home/u/.local/state/sentinel/audit.jsonl")
            #expect(state.cachePath == "/home/u/.cache/sentinel")
            #expect(state.osvDatabase == "/home/u/.cache/sentinel/osv.sqlite")
        }
    }

    @Test func absoluteXDGVariablesWin() throws {
        let state = try StateDirectory.resolve(environment: [
            "HOME": "/home/u", "XDG_STATE_HOME": "/srv/state/", "XDG_CACHE_HOME": "/srv/cache",
        ])
        #expect(state.path == "/srv/state/sentinel")
        #expect(state.osvDatabase == "/srv/cache/sentinel/osv.sqlite")
        // Both set: HOME is not needed at all.
        let without = try StateDirectory.resolve(environment: ["XDG_STATE_HOME": "/s", "XDG_CACHE_HOME": "/c"])
        #expect(without == StateDirectory(path: "/s/sentinel", cachePath: "/c/sentinel"))
    }

    /// The XDG spec: relative and empty values are ignored (the default applies).
    @Test(arguments: ["", "relative/state", "./state", "~/state"])
    func relativeOrEmptyXDGValuesAreIgnored(_ value: String) throws {
        let state = try StateDirectory.resolve(environment: ["HOME": "/home/u", "XDG_STATE_HOME": value, "XDG_CACHE_HOME": value])
        #expect(state == StateDirectory(path: "/home/u/.local/state/sentinel", cachePath: "/home/u/.cache/sentinel"))
    }

    @Test(arguments: [[:], ["HOME": ""], ["HOME": "home/u"], ["XDG_CACHE_HOME": "/c"]])
    func noHomeIsAClearError(_ environment: [String: String]) {
        #expect(
            throws: SentinelError(
                .invalidInput,
                "HOME is not set to an absolute path, so there is no XDG_STATE_HOME default: set HOME, XDG_STATE_HOME or SENTINEL_HOME")
        ) {
            try StateDirectory.resolve(environment: environment)
        }
        // The cache's default needs HOME too.
        var stateOnly = environment
        stateOnly["XDG_STATE_HOME"] = "/s"
        stateOnly["XDG_CACHE_HOME"] = nil
        #expect(throws: SentinelError.self) { try StateDirectory.resolve(environment: stateOnly) }
    }

    @Test func createsItPrivatelyAndIsIdempotent() throws {
        let root = try TemporaryDirectory.make("store")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let state = StateDirectory(path: root + "/a/.sentinel")
        try state.create()
        try state.create()
        var info = stat()
        #expect(stat(state.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
    }
}
