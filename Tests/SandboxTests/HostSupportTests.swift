import Foundation
import TestSupport
import Testing

@testable import Sandbox

/// `doctor`'s facts come back as values, in a fixed order, and none fails on a host that sandboxes.
struct HostSupportTests {
    @Test func probeNamesEveryCheckInOrder() {
        let checks = HostSupport.probe(environment: ["PATH": "/usr/bin:/bin"])
        #expect(checks.map(\.name) == ["kernel", "user", "user namespaces", "seccomp", "cgroups", "overlayfs"] + HostSupport.tools)
        #expect(checks.allSatisfy { !$0.detail.isEmpty })
    }

    @Test func toolsAreFoundOnThePathGiven() {
        let checks = HostSupport.probe(environment: ["PATH": "/nonexistent-dir"])
        let tools = checks.suffix(HostSupport.tools.count)
        #expect(tools.allSatisfy { $0.level == .warn && $0.detail == "not found" })
        #expect(HostSupport.which("sh", path: "/nonexistent-dir:/bin") == "/bin/sh")
    }

    @Test(.enabled(if: TestHost.canSandbox, "needs root and user namespaces"))
    func nothingFailsWhereTheSandboxRuns() {
        let checks =
            HostSupport.probe(environment: ProcessInfo.processInfo.environment)
            + [HostSupport.sandboxRuns()]
        #expect(checks.filter { $0.level == .fail }.isEmpty, "\(checks.filter { $0.level == .fail })")
        #expect(checks.last?.level == .ok)
    }
}
