import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EscapeBattery {
    /// A read-only workspace lets a scanner read a root-only tree, and nothing else: the payload
    /// is not the owner of the host's files there, and the sockets, FIFOs and files of the tree
    /// do not lead to the host processes using them.
    @Suite struct ReadOnlyWorkspaceOwnership {
        /// A root-only Unix socket a host daemon listens on inside the workspace.
        @Test func aHostSocketInTheWorkspaceCannotBeReached() throws {
            try SandboxHarness.with { harness in
                let path = harness.path + "/daemon.sock"
                let listener = try HostSocket.unixListener(path: path)
                defer { listener.close() }
                #expect(chmod(path, 0o700) == 0)
                let run = try harness.probe(["connect-unix", "/workspace/daemon.sock"], flags: ["--ro"])
                expectDenied(run, Attempt("connect-unix", denied: "ECONNREFUSED", "EACCES"))
                #expect(!listener.receivedSomething(within: 0.2), "a host daemon got a connection from the payload")
            }
        }

        /// A root-only FIFO a host process reads.
        @Test func aHostFIFOInTheWorkspaceCannotBeWritten() throws {
            try SandboxHarness.with { harness in
                let path = harness.path + "/events.fifo"
                #expect(mkfifo(path, 0o600) == 0)
                let reader = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
                #expect(reader >= 0)
                defer { close(reader) }
                let run = try harness.probe(["fifo-write", "/workspace/events.fifo"], flags: ["--ro"])
                expectDenied(run, Attempt("fifo-write", denied: "ENXIO", "EACCES", "EROFS"))
                var buffer = [UInt8](repeating: 0, count: 64)
                #expect(read(reader, &buffer, buffer.count) <= 0, "the host reader got the payload's bytes")
            }
        }

        /// A lease on a root-only file: a host writer opening it must not wait for the payload
        /// (an open with O_NONBLOCK fails with EWOULDBLOCK while a lease would make it wait).
        @Test func aLeaseOnAWorkspaceFileDoesNotStallAHostWriter() throws {
            try SandboxHarness.with { harness in
                let path = harness.path + "/tracked.txt"
                try "data\n".write(toFile: path, atomically: false, encoding: .utf8)
                #expect(chmod(path, 0o600) == 0)
                let held = try HeldProbe(harness, ["lease", "/workspace/tracked.txt"], flags: ["--ro"])
                var writerError: Int32?
                if held.waitUntilHolding() != nil {
                    let writer = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
                    writerError = writer < 0 ? errno : 0
                    if writer >= 0 { close(writer) }
                }
                let run = try held.release()
                if let writerError {
                    #expect(writerError == 0, "host root's open for writing met the payload's lease: errno \(writerError)")
                } else {
                    // No lease at all holds too.
                    expectDenied(run, Attempt("lease", denied: "EACCES", "EAGAIN", "EINVAL", "EROFS"))
                }
            }
        }

        /// What `--ro` grants is reading: the tree's owner may read a 0600 file, so the payload can.
        @Test func aRootOnlyFileIsStillReadable() throws {
            try SandboxHarness.with { harness in
                #expect(chmod(harness.path, 0o700) == 0)
                try "secret = 1\n".write(toFile: harness.path + "/app.py", atomically: false, encoding: .utf8)
                #expect(chmod(harness.path + "/app.py", 0o600) == 0)
                let run = try harness.command(["/bin/cat", "/workspace/app.py"], flags: ["--ro"])
                #expect(run.result.status == 0 && run.result.stdout == "secret = 1\n", "\(run.summary)")
            }
        }
    }
}
