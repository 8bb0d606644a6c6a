import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EscapeBattery {
    /// Identity and inheritance: no capabilities, no way back to root, nothing leaked in.
    @Suite struct Credentials {
        static let attempts: [Attempt] = [
            // EINVAL: uid/gid 0 is not mapped in the sandbox's user namespace at all.
            Attempt("setuid0", denied: "EPERM", "EINVAL"),
            Attempt("setgid0", denied: "EPERM", "EINVAL"),
            Attempt("setgroups", denied: "EPERM"),
            Attempt("capset", denied: "EPERM"),
            Attempt("securebits", denied: "EPERM"),
            Attempt("rlimit-raise", denied: "EPERM"),
            Attempt("nice", denied: "EACCES", "EPERM"),
        ]

        @Test("privilege attempt denied", arguments: attempts)
        func denied(attempt: Attempt) throws {
            try SandboxHarness.with { harness in
                expectDenied(try harness.probe(attempt.arguments, flags: attempt.flags), attempt)
            }
        }

        @Test func capabilitiesAreGoneAndTheFilterIsOn() throws {
            try SandboxHarness.with { harness in
                let run = try harness.probe(["caps"])
                let fields = try #require(run.output?.fields, "\(run.summary)")
                for set in ["CapEff", "CapPrm", "CapInh", "CapBnd", "CapAmb"] {
                    #expect(fields[set] == "0000000000000000", "\(set): \(run.summary)")
                }
                #expect(fields["NoNewPrivs"] == "1", "\(run.summary)")
                #expect(fields["Seccomp"] == "2", "\(run.summary)")
            }
        }

        @Test func runsAsTheUnprivilegedUid() throws {
            try SandboxHarness.with { harness in
                let run = try harness.probe(["euid"])
                #expect(run.output?.fields["euid"] == "65534", "\(run.summary)")
                #expect(run.output?.fields["uid"] == "65534", "\(run.summary)")
            }
        }

        @Test func secretsInTheCallersEnvironmentAreNotVisible() throws {
            var environment = ProcessInfo.processInfo.environment
            environment["AWS_SECRET_ACCESS_KEY"] = "escape-test-aws-secret"
            environment["GITHUB_TOKEN"] = "escape-test-github-token"
            try SandboxHarness.with { harness in
                let run = try harness.probe(
                    ["env-secret", "AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN"], environment: environment)
                expectDenied(run, Attempt("env-secret", denied: "ENOENT"))
                let names = try harness.probe(["env"], environment: environment)
                #expect(names.output?.kind == .info, "\(names.summary)")
                #expect(!(names.output?.detail.contains("TOKEN") ?? true), "\(names.summary)")
            }
        }

        /// The sandbox's init is a clone of the launcher, so it carried the launcher's argv: a DAST
        /// run's `--header 'Authorization: …'` (here a secret-looking `--allow` value) showed in
        /// `/proc/1/cmdline`, which any process may read. The init now shows a fixed title, and its
        /// environment (the launcher's, with any key) stays unreadable.
        @Test func theInitShowsNoneOfTheLaunchersArgumentsOrEnvironment() throws {
            var environment = ProcessInfo.processInfo.environment
            environment["SENTINEL_LLM_KEY"] = "escape-test-llm-key"
            let secret = "escape-test-bearer-\(UUID().uuidString.prefix(8).lowercased())"
            try SandboxHarness.with { harness in
                let script = """
                    printf 'cmdline='; tr '\\0' ' ' < /proc/1/cmdline; echo
                    printf 'comm='; cat /proc/1/comm
                    cat /proc/1/environ > /dev/null 2>&1; echo "environ-status=$?"
                    """
                let run = try harness.command(
                    ["/bin/sh", "-c", script], flags: ["--allow", "\(secret).invalid:443"], environment: environment)
                let lines = run.result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                #expect(lines.contains("cmdline=sentinel-init"), "\(run.summary)")
                #expect(lines.contains("comm=sentinel-init"), "\(run.summary)")
                #expect(lines.contains("environ-status=1"), "\(run.summary)")
                for leaked in [secret, "escape-test-llm-key", "--workspace", "--status-json"] {
                    #expect(!run.result.stdout.contains(leaked), "\(leaked) visible inside: \(run.summary)")
                }
            }
        }

        /// fd 7 is open in the launcher (its shell opened it); the command must not inherit it.
        @Test func inheritedDescriptorsAreClosed() throws {
            try SandboxHarness.with { harness in
                let run = try harness.command([SandboxHarness.probeInside, "fds"], viaShellHoldingFD7: true)
                #expect(run.output == ProbeOutput("INFO fds open=none"), "\(run.summary)")
            }
        }
    }
}
