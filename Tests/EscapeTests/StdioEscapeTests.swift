import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The caller's stdin, stdout and stderr: a payload that held the caller's own file
/// descriptions rewrote a log the host had redirected (`pwrite`, `ftruncate`), moved the read
/// position of `bash < ci.sh` so the host shell skipped its next line, and left O_NONBLOCK on
/// the caller's pipe. Each attempt checks the host side: bytes, offset and flags unchanged.
@Suite(
    .serialized,
    .enabled(if: BatteryGate.enabled, "the sandbox needs root and user namespaces on this host")
)
struct StdioEscapeBattery {
    /// Runs `script` under /bin/sh with `$SENTINEL`, `$WS` (the workspace) and `$PROBE` (the
    /// probe inside) set; the runner's stdout and stderr are host files, stdin /dev/null.
    private func shell(_ script: String, _ harness: SandboxHarness) throws -> CommandResult {
        var environment = ProcessInfo.processInfo.environment
        environment["SENTINEL"] = PackagePaths.sentinel
        environment["WS"] = harness.path
        environment["PROBE"] = SandboxHarness.probeInside
        environment["SCRATCH"] = harness.scratch.path
        return try CommandRunner.run("/bin/sh", ["-c", script], environment: environment, timeout: 60)
    }

    /// `pwrite`/`ftruncate` on fds 1 and 2 when the caller redirected them into host files:
    /// the launcher's relay pipes refuse both, and the host's lines stay as written.
    @Test(arguments: [
        Attempt("pwrite-output", denied: "ESPIPE"), Attempt("truncate-output", denied: "EINVAL"),
        Attempt("pwrite-output", denied: "ESPIPE", flags: ["-t"]),
        Attempt("truncate-output", denied: "EINVAL", flags: ["-t"]),
    ])
    func redirectedLogIsNotRewritten(attempt: Attempt) throws {
        try SandboxHarness.with { harness in
            let verb = attempt.arguments[0]
            let flags = attempt.flags.joined(separator: " ")
            let result = try shell(
                """
                echo host-before; echo host-err-before >&2
                "$SENTINEL" sandbox run \(flags) --workspace "$WS" -- "$PROBE" \(verb)
                echo host-after; echo host-err-after >&2
                """, harness)
            // A pty ends lines with "\r\n", which Swift counts as one Character.
            let lines = result.stdout.replacingOccurrences(of: "\r\n", with: "\n")
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.first == "host-before", "\(result.summary)")
            #expect(lines.dropLast().last == "host-after", "\(result.summary)")
            #expect(!result.stdout.contains("\0"), "\(result.summary)")
            #expect(result.stderr.hasPrefix("host-err-before\n"), "\(result.summary)")
            #expect(result.stderr.hasSuffix("host-err-after\n"), "\(result.summary)")
            let verdict = ProbeOutput(lines.dropFirst().joined(separator: "\n"))
            #expect(verdict?.kind == .denied && attempt.expected.contains(verdict?.detail ?? ""), "\(result.summary)")
        }
    }

    /// `bash < ci.sh`: bash reads its script from the same file description it hands the
    /// command as stdin. Seeking it to the end made the host shell skip every later line.
    @Test func hostShellScriptIsNotSkipped() throws {
        try SandboxHarness.with { harness in
            let script = harness.scratch.path + "/ci.sh"
            try """
            "$SENTINEL" sandbox run --workspace "$WS" -- "$PROBE" lseek-stdin
            echo reached-next-line
            exit 0

            """.write(toFile: script, atomically: true, encoding: .utf8)
            let result = try shell("exec /bin/bash < \"$SCRATCH/ci.sh\"", harness)
            #expect(result.stdout.contains("DENIED lseek-stdin not-a-file"), "\(result.summary)")
            #expect(result.stdout.hasSuffix("reached-next-line\n"), "\(result.summary)")
        }
    }

    /// The same through `read`: the shell's next read gets the line after the command.
    @Test func hostReadsItsNextLine() throws {
        try SandboxHarness.with { harness in
            try "first\nsecond\n".write(toFile: harness.scratch.path + "/input", atomically: true, encoding: .utf8)
            let result = try shell(
                """
                exec < "$SCRATCH/input"
                "$SENTINEL" sandbox run --workspace "$WS" -- "$PROBE" lseek-stdin
                read line; echo "next=$line"
                """, harness)
            #expect(result.stdout.hasSuffix("next=first\n"), "\(result.summary)")
        }
    }

    /// With `-i` the payload reads a pipe the launcher fills: there is nothing of the
    /// caller's to seek.
    @Test func interactiveStdinIsAPipe() throws {
        try SandboxHarness.with { harness in
            try "first\n".write(toFile: harness.scratch.path + "/input", atomically: true, encoding: .utf8)
            let result = try shell(
                "exec < \"$SCRATCH/input\"; \"$SENTINEL\" sandbox run -i --workspace \"$WS\" -- \"$PROBE\" lseek-stdin",
                harness)
            #expect(ProbeOutput(result.stdout) == ProbeOutput("DENIED lseek-stdin ESPIPE"), "\(result.summary)")
        }
    }

    /// O_NONBLOCK set inside on fds 0..2 must not reach the caller's descriptions (here a
    /// pipe on 1, /dev/null on 0, a file on 2): a caller's later blocking writes would fail
    /// with EAGAIN. awk reads its own fdinfo, whose fds 0..2 are the ones sentinel had.
    @Test func callerDescriptorsKeepTheirFlags() throws {
        try SandboxHarness.with { harness in
            let result = try shell(
                """
                { "$SENTINEL" sandbox run --workspace "$WS" -- "$PROBE" nonblock-stdio
                  awk '/^flags:/ { print FILENAME, $2 > ENVIRON["SCRATCH"] "/flags" }' \
                    /proc/self/fdinfo/0 /proc/self/fdinfo/1 /proc/self/fdinfo/2; } | cat
                """, harness)
            #expect(result.stdout.contains("INFO nonblock-stdio fd0=1 fd1=1 fd2=1"), "\(result.summary)")
            let flags = (try? String(contentsOfFile: harness.scratch.path + "/flags", encoding: .utf8)) ?? ""
            let parsed = flags.split(separator: "\n").compactMap { line -> (String, Int)? in
                let parts = line.split(separator: " ")
                guard parts.count == 2, let value = Int(parts[1], radix: 8) else { return nil }
                return (String(parts[0]), value)
            }
            #expect(parsed.count == 3, "flags: \(flags) \(result.summary)")
            for (file, value) in parsed {
                #expect(value & Int(O_NONBLOCK) == 0, "\(file) has O_NONBLOCK: \(flags)")
            }
        }
    }
}
