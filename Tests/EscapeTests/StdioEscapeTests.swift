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
    private func shell(_ script: String, _ harness: SandboxHarness, extra: [String: String] = [:]) throws -> CommandResult {
        var environment = ProcessInfo.processInfo.environment.merging(extra) { _, new in new }
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

    /// `-t` relayed the payload's terminal output raw: OSC 52 wrote the caller's clipboard,
    /// OSC 0 set the window title and `CSI 21 t` typed it back into whatever reads the caller's
    /// terminal next (the host shell), a DCS string reached the terminal. Drawing still passes,
    /// also when a sequence is split across the payload's writes.
    @Test func terminalOutputCannotReachPastTheScreen() throws {
        try SandboxHarness.with { harness in
            let payload = #"""
                printf 'A\033]52;c;cm0gLXJmIH4K\007B\033]0;pwned\007C\033[21tD\033P$qm\033\\E\033[31mred\033[0m'
                printf 'F\033]5'; sleep 0.3; printf '2;c;Zm9v\007G\033['; sleep 0.3; printf '1mH\n'
                """#
            let result = try shell(
                "\"$SENTINEL\" sandbox run -t --workspace \"$WS\" -- /bin/sh -c \"$PAYLOAD\"", harness,
                extra: ["PAYLOAD": payload])
            #expect(result.stdout.contains("ABCDE\u{1B}[31mred\u{1B}[0mFG\u{1B}[1mH"), "\(result.summary)")
            for forbidden in ["]52", "]0;", "[21t", "\u{1B}P", "pwned", "Zm9v"] {
                #expect(!result.stdout.contains(forbidden), "\(forbidden.debugDescription) reached the terminal: \(result.summary)")
            }
        }
    }

    /// Issue 53, R6: the filter was a deny-list, so screen's title string (`ESC k … ST`), C1
    /// controls in overlong UTF-8, DECSNLS/DECSCPP resizes and DECRQCRA (a checksum of the
    /// screen, answered into the caller's input) passed. Only what is known to draw passes.
    @Test func terminalOutputIsAnAllowList() throws {
        try SandboxHarness.with { harness in
            let payload = #"""
                printf 'A\033kpwned\033\\B\340\202\233'; printf '21tC\033[60*|\033[132$|D\033[1;1;1;1;24;80*yE'
                printf '\033[8;100;300tF\302\2350;x\007G\033[?3hH\033[1mI\033[0m\n'
                """#
            let result = try shell(
                "\"$SENTINEL\" sandbox run -t --workspace \"$WS\" -- /bin/sh -c \"$PAYLOAD\"", harness,
                extra: ["PAYLOAD": payload])
            #expect(result.stdout.contains("AB21tCDEF0;x\u{7}GH\u{1B}[1mI\u{1B}[0m"), "\(result.summary)")
            for forbidden in ["\u{1B}k", "pwned", "*|", "$|", "*y", "[8;", "[?3h", "\u{9B}", "\u{9D}"] {
                #expect(!result.stdout.contains(forbidden), "\(forbidden.debugDescription) reached the terminal: \(result.summary)")
            }
            // Malformed UTF-8 (the overlong C1) would read back as U+FFFD.
            #expect(!result.stdout.contains("\u{FFFD}"), "malformed UTF-8 reached the terminal: \(result.summary)")
        }
    }
}
