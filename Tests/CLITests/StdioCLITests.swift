#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import TestSupport
import Testing

extension CLI {
    /// Runs `script` with bash, `$SENTINEL` set to the binary under test.
    static func shell(_ script: String, environment extra: [String: String] = [:], timeout: Double = 60) throws
        -> Result
    {
        var environment = ProcessInfo.processInfo.environment
        environment["SENTINEL"] = binary
        environment.merge(extra) { $1 }
        return try runProgram("/bin/bash", ["-c", script], environment: environment, timeout: timeout)
    }
}

/// Docker's stdio conventions for `sandbox run`: stdin is /dev/null unless `-i`, output is
/// relayed through pipes as it arrives, with no capture limit.
@Suite(.enabled(if: TestHost.canSandbox, "needs root and user namespaces"))
struct StdioCLITests {
    @Test func stdinIsNullWithoutInteractiveAndTheCallersInputStaysUnread() throws {
        let result = try CLI.shell(#"printf 'a\nb\n' | { "$SENTINEL" sandbox run -- cat; echo "rc=$?"; cat; }"#)
        #expect(result.stdout == "rc=0\na\nb\n", "\(result.stderr)")
    }

    @Test func interactiveRelaysStdinToTheEnd() throws {
        let result = try CLI.shell(#"seq 1 200000 | "$SENTINEL" sandbox run -i -- sh -c 'wc -l; echo done'"#)
        #expect(result.stdout == "200000\ndone\n", "\(result.stderr)")
    }

    /// The relay of an endless stdin must not outlive the payload.
    @Test func interactivePayloadThatNeverReadsStillEnds() throws {
        let result = try CLI.shell(#"yes | "$SENTINEL" sandbox run -i -- sh -c 'exit 4'; echo "rc=$?""#)
        #expect(result.stdout == "rc=4\n", "\(result.stderr)")
    }

    /// Relayed output has no capture limit (capture mode keeps its `outputBytes`).
    @Test func relayedOutputIsNotTruncated() throws {
        let result = try CLI.shell(#""$SENTINEL" sandbox run -- head -c 20000000 /dev/zero | wc -c"#)
        #expect(result.stdout == "20000000\n", "\(result.stderr)")
    }

    /// A reader that goes away makes the payload's next write fail, as it would have without
    /// the relay: `yes` dies of SIGPIPE and the launcher reports 128+13.
    @Test func closedReaderEndsThePayloadWithSIGPIPE() throws {
        let result = try CLI.shell(#""$SENTINEL" sandbox run -- yes | head -n 2; echo "rc=${PIPESTATUS[0]}""#)
        #expect(result.stdout == "y\ny\nrc=141\n", "\(result.stderr)")
    }

    @Test func stderrStaysSeparateFromStdout() throws {
        let result = try CLI.shell(#""$SENTINEL" sandbox run -- sh -c 'echo out; echo err >&2' 2>/dev/null"#)
        #expect(result.stdout == "out\n")
    }
}

/// `-t`: the payload gets a pty of the sandbox's own devpts as its controlling terminal; the
/// launcher relays between its terminal (a pty this test makes) and the pty's master.
@Suite(.serialized, .enabled(if: TestHost.canSandbox, "needs root and user namespaces"))
struct TerminalCLITests {
    /// Runs sentinel on a fresh pty (30 rows, 100 columns) from Python, performing `steps`:
    /// `["wait", TEXT]` until TEXT has appeared, `["send", TEXT]`, `["resize", ROWS, COLS]`.
    /// Prints one JSON object: the output, the exit status, and whether the terminal's modes
    /// after the run equal those before.
    private static let driver = #"""
        import fcntl, json, os, select, struct, sys, termios, time
        sentinel, steps, args = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3:]
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        before = termios.tcgetattr(slave)
        pid = os.fork()
        if pid == 0:
            os.setsid()
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
            for fd in range(3):
                os.dup2(slave, fd)
            os.execv(sentinel, [sentinel, "sandbox", "run"] + args)
        os.close(slave)
        output, deadline, status = b"", time.time() + 40, None
        def pump(timeout):
            global output
            ready, _, _ = select.select([master], [], [], timeout)
            if ready:
                try:
                    data = os.read(master, 65536)
                except OSError:
                    data = b""
                output += data
                return bool(data)
            return True
        for step in steps:
            if step[0] == "wait":
                while step[1].encode() not in output and time.time() < deadline:
                    if not pump(0.1):
                        break
            elif step[0] == "send":
                os.write(master, step[1].encode())
            elif step[0] == "resize":
                fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", step[1], step[2], 0, 0))
        while time.time() < deadline:
            done, code = os.waitpid(pid, os.WNOHANG)
            if done:
                status = os.waitstatus_to_exitcode(code)
                break
            pump(0.1)
        while pump(0.2) and time.time() < deadline:
            pass
        if status is None:
            os.kill(pid, 9)
        after = termios.tcgetattr(master)
        print(json.dumps({"output": output.decode(errors="replace"), "status": status, "restored": before == after}))
        """#

    private struct Outcome {
        var output: String
        var status: Int?
        var restored: Bool
    }

    private func drive(_ arguments: [String], steps: [[Any]] = []) throws -> Outcome {
        let stepsJSON = String(decoding: try JSONSerialization.data(withJSONObject: steps), as: UTF8.self)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", Self.driver, CLI.binary, stepsJSON] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        // Line ends are "\r\n" from the sandbox's pty, and "\r\r\n" when the test's pty (not
        // raw without -i) adds its own carriage return.
        let output = (object["output"] as? String ?? "").unicodeScalars.filter { $0 != "\r" }
        return Outcome(
            output: String(String.UnicodeScalarView(output)),
            status: object["status"] as? Int, restored: object["restored"] as? Bool ?? false)
    }

    @Test func payloadGetsItsOwnTerminalWithTheCallersSize() throws {
        let outcome = try drive([
            "-t", "--", "sh", "-c",
            "tty; stty size; test -t 0 && test -t 1 && test -t 2 && echo all-ttys",
        ])
        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(outcome.output == "/dev/pts/0\n30 100\nall-ttys\n")
        #expect(outcome.restored)
    }

    @Test func interactiveTerminalRelaysInputAndRestoresTheCallersModes() throws {
        let outcome = try drive(
            ["-it", "--", "sh", "-c", "echo ready; read line; echo \"got:$line\""],
            steps: [["wait", "ready"], ["send", "hello\r"]])
        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(outcome.output.contains("got:hello"), "\(outcome.output)")
        #expect(outcome.restored)
    }

    /// In raw mode `^C` is a byte for the sandbox's pty, whose line discipline signals the
    /// payload: the payload's trap runs, the launcher is not interrupted.
    @Test func controlCReachesThePayloadNotTheLauncher() throws {
        let outcome = try drive(
            [
                "-it", "--", "sh", "-c",
                "trap 'echo caught; exit 7' INT; echo ready; while :; do sleep 0.1; done",
            ],
            steps: [["wait", "ready"], ["send", "\u{3}"]])
        #expect(outcome.status == 7, "\(outcome.output)")
        #expect(outcome.output.contains("caught"), "\(outcome.output)")
        #expect(outcome.restored)
    }

    @Test func windowSizeChangesFollowIntoTheSandbox() throws {
        let outcome = try drive(
            [
                "-it", "--", "sh", "-c",
                "trap 'stty size; exit 0' WINCH; echo ready; while :; do sleep 0.1; done",
            ],
            steps: [["wait", "ready"], ["resize", 40, 120], ["wait", "40 120"]])
        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(outcome.output.contains("40 120"), "\(outcome.output)")
        #expect(outcome.restored)
    }
}
