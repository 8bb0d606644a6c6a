import Foundation
import Support
import Testing

@testable import Heal
@testable import Signals

/// Memory keeps to the repository an attempt was made on (issue 53, R8): the same rule, the same
/// signal even, in another repository brings nothing back.
@Suite("Heal memory by repository")
struct MemoryRepositoryTests {
    static let ours = "https://example.com/ours"
    static let theirs = "https://example.com/theirs"

    static func attempt(_ verdict: Verdict, patch: String) -> Attempt {
        Attempt(
            number: 1, actor: .ruleFix, description: "d", strategy: "fix-template", patchHash: patch, patch: patch, size: 1,
            verdict: verdict, lesson: nil, verifications: [], rescan: nil, notes: [], changeKey: "change-" + patch)
    }

    @Test("a fix, or a failure, recorded in another repository is not offered, whatever the signal shares with it")
    func otherRepositoryIsNotOffered() throws {
        let directory = try ScratchDirectory.make(prefix: "heal-memory")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let memory = try HealMemory(path: directory + "/heal.sqlite")
        let signal = Signal(
            kind: .finding, source: "sarif", message: "m", locations: [Signal.Location(file: "app.py", line: 3)],
            ruleId: "python.yaml-load")
        let theirs = try memory.record(Self.attempt(.verified, patch: "theirs"), for: signal, repository: Self.theirs)
        try memory.record(Self.attempt(.failed, patch: "failed"), for: signal, repository: Self.theirs)
        #expect(try memory.similar(to: signal, repository: Self.ours).isEmpty)
        #expect(try memory.failedChanges(of: signal, repository: Self.ours).isEmpty)
        #expect(try memory.similar(to: signal, repository: Self.theirs).map(\.id).first == theirs)
        #expect(try memory.failedChanges(of: signal, repository: Self.theirs) == ["change-failed"])
        // The same rule on another file of ours: only our own fix comes back.
        let ours = try memory.record(Self.attempt(.verified, patch: "ours"), for: signal, repository: Self.ours)
        var other = signal
        other.locations = [Signal.Location(file: "other.py", line: 9)]
        let offered = try memory.similar(to: other, repository: Self.ours)
        #expect(offered.map(\.id) == [ours] && offered.first?.repository == Self.ours && offered.first?.exact == false)
        // A row from before repositories were recorded belongs to none.
        var old = try #require(try memory.attempts(after: 0).first?.attempt)
        old.repository = nil
        old.created = "2020-01-01T00:00:00Z"
        #expect(try memory.importAttempts([old]) == 1)
        #expect(try memory.similar(to: signal, repository: Self.ours).map(\.id) == [ours])
    }

    @Test(
        "a repository's identity: URLs normalised, paths resolved",
        arguments: [
            ("https://GitHub.com/Org/App.git/", "https://github.com/Org/App"),
            ("https://github.com:443/Org/App", "https://github.com/Org/App"),
            ("http://git.example:80/app", "http://git.example/app"),
            ("https://git.example:8443/app.git", "https://git.example:8443/app"),
            ("ssh://git.example/srv/app.git", "ssh://git.example/srv/app"),
            ("git@github.com:org/app.git", "git@github.com:org/app"),
            ("https://github.com/org/app", "https://github.com/org/app"),
        ])
    func identity(repository: String, identity: String) {
        #expect(RepositoryIdentity.of(repository) == identity)
    }

    @Test("a local repository is its real path, however it is named")
    func localIdentity() throws {
        let directory = try ScratchDirectory.make(prefix: "heal-identity")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/repo", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: directory + "/repo")
        let real = try #require(OutputPlacement.realPath(directory + "/repo"))
        #expect(RepositoryIdentity.local(directory + "/link") == "file://" + real)
        #expect(RepositoryIdentity.of("file://" + directory + "/repo/") == "file://" + real)
        #expect(RepositoryIdentity.of(directory + "/repo/../repo") == "file://" + real)
    }
}
