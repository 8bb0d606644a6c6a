import Testing

@testable import Fleet

/// What a heal job's memory is filed under: the repository the job names, normalised.
@Suite("Heal job repository identity")
struct HealJobRepositoryIdentityTests {
    @Test("a remote job's URL, normalised; a local job's checked path; nothing for a scan")
    func identity() {
        let remote = FleetJobSpec(kind: .heal, repository: "https://Git.Example/org/app.git", signal: "s", verify: "true")
        #expect(JobExecution.repositoryIdentity(of: remote, checkedPath: nil) == "https://git.example/org/app")
        let local = FleetJobSpec(kind: .heal, repository: "/srv/repos/app", signal: "s", verify: "true")
        #expect(JobExecution.repositoryIdentity(of: local, checkedPath: "/") == "file:///")
        #expect(JobExecution.repositoryIdentity(of: FleetJobSpec(kind: .scan, repository: "/srv/repos/app"), checkedPath: nil) == nil)
    }
}
