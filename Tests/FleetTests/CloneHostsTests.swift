import Store
import Support
import Testing

@testable import Fleet

/// What `--clone-host` lets a worker clone, and how a failed attempt is classed (issue 58).
struct CloneHostsTests {
    @Test(
        "listed http(s) hosts pass; others, ssh and other schemes are refused with a line naming why",
        arguments: [
            ("https://git.example/a.git", true), ("http://GIT.example:80/a.git", true), ("https://other.example/a.git", false),
            ("https://git.example.evil/a.git", false), ("http://127.0.0.1:8080/a.git", true), ("http://127.0.0.1:9/a.git", false),
            ("ssh://git.example/a.git", false), ("git@git.example:a.git", false), ("ext::sh -c x", false), ("ftp://git.example/a", false),
        ])
    func allowList(repository: String, allowed: Bool) throws {
        let hosts = CloneHosts(["git.example", "127.0.0.1:8080"])
        if allowed {
            try hosts.check(repository, worker: "w")
        } else {
            let error = try #require(throws: SentinelError.self) { try hosts.check(repository, worker: "w") }
            #expect(error.code == .invalidInput)
        }
    }

    @Test("without --clone-host every remote is refused at once, naming the option")
    func emptyList() throws {
        let error = try #require(throws: SentinelError.self) { try CloneHosts([]).check("https://git.example/a.git", worker: "w") }
        #expect(error.message.contains("started without --clone-host"))
    }

    @Test("refusals and exit 2 are final; git's and everything else's failures are retried")
    func classes() {
        #expect(FailureClass.of(SentinelError(.invalidInput, "outside the roots")) == .invalid)
        #expect(FailureClass.of(SentinelError(.git, "git clone x: Could not resolve host")) == .checkout)
        #expect(FailureClass.of(CancellationError()) == .tool)
        #expect(FailureClass.ofExitStatus(2) == .invalid)
        #expect(FailureClass.ofExitStatus(137) == .tool)
    }
}
