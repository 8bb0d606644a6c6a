import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Every file the root CLI writes (`scan --output`, `--write-baseline`, `heal --out`,
/// `sandbox run --status-json`) goes through one primitive: a link planted in the tree being read
/// (by an `--rw` payload, or shipped in the repository) is never followed, whether it sits at
/// the file's name or at a directory on the way to it.
@Suite("outputs: planted links")
struct OutputEscapeTests {
    /// A tree being read (`tree`), a host directory outside it (`host`), and a FIFO with a
    /// reader already open, so that a write through a link to it is seen instead of blocking.
    final class Layout {
        let scratch: TemporaryDirectory
        var tree: String { scratch.path + "/tree" }
        var host: String { scratch.path + "/host" }
        var fifo: String { scratch.path + "/fifo" }
        let fifoReader: Int32

        init() throws {
            let scratch = try TemporaryDirectory(prefix: "sentinel-output-escape")
            let (tree, host, fifo) = (scratch.path + "/tree", scratch.path + "/host", scratch.path + "/fifo")
            for directory in [tree, host, scratch.path + "/home"] {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            try "import os\nos.system(input())\n".write(toFile: tree + "/app.py", atomically: false, encoding: .utf8)
            guard mkfifo(fifo, 0o600) == 0 else { throw RunnerError("mkfifo: \(errno)") }
            // What the tree's owner plants: a file link to the FIFO, a directory link to the host.
            try FileManager.default.createSymbolicLink(atPath: tree + "/report.json", withDestinationPath: fifo)
            try FileManager.default.createSymbolicLink(atPath: tree + "/out", withDestinationPath: host)
            self.scratch = scratch
            fifoReader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        }

        deinit {
            close(fifoReader)
            scratch.remove()
        }

        /// Bytes that went into the FIFO through a link (nothing, when nothing followed it).
        func bytesThroughFIFO() -> Int {
            var buffer = [UInt8](repeating: 0, count: 65536)
            return max(0, read(fifoReader, &buffer, buffer.count))
        }

        var hostEntries: [String] { (try? FileManager.default.contentsOfDirectory(atPath: host)) ?? ["?"] }

        func sentinel(_ arguments: [String]) throws -> CommandResult {
            try CommandRunner.run(
                PackagePaths.sentinel, arguments,
                environment: ["PATH": "/usr/bin:/bin", "SENTINEL_HOME": scratch.path + "/home"], timeout: 300)
        }
    }

    @Test("scan --output through a link to a special file: refused, nothing written through it")
    func reportThroughFileLink() throws {
        let layout = try Layout()
        let result = try layout.sentinel(["scan", layout.tree, "--sast", "--output", layout.tree + "/report.json"])
        #expect(layout.bytesThroughFIFO() == 0, "the report was written through the planted link: \(result.summary)")
        #expect(result.status == 2, "\(result.summary)")
        #expect(result.stderr.contains("is a symbolic link"), "\(result.summary)")
    }

    @Test("scan --output and --write-baseline under a directory link in the tree: refused, nothing lands outside")
    func reportUnderDirectoryLink() throws {
        let layout = try Layout()
        for option in ["--output", "--write-baseline"] {
            let result = try layout.sentinel(["scan", layout.tree, "--sast", option, layout.tree + "/out/report.json"])
            #expect(layout.hostEntries.isEmpty, "\(option) wrote outside the tree: \(layout.hostEntries) \(result.summary)")
            #expect(result.status == 2, "\(option): \(result.summary)")
            #expect(result.stderr.contains("symbolic link inside"), "\(option): \(result.summary)")
        }
    }

    /// Red team R12: the tree was also mounted at a second path, and the output named through that
    /// path: "inside the tree" was decided by comparing path strings, so the planted link was followed.
    @Test(
        "scan --output and --write-baseline through a second mount of the tree: the planted link is still refused",
        .enabled(if: geteuid() == 0, "a bind mount needs root"))
    func reportThroughASecondMountOfTheTree() throws {
        let layout = try Layout()
        let alias = layout.scratch.path + "/alias"
        try FileManager.default.createDirectory(atPath: alias, withIntermediateDirectories: false)
        let bind = try CommandRunner.run("/bin/mount", ["--bind", layout.tree, alias], timeout: 60)
        try #require(bind.status == 0, "\(bind.summary)")
        defer { _ = try? CommandRunner.run("/bin/umount", ["-l", alias], timeout: 60) }
        for option in ["--output", "--write-baseline"] {
            let result = try layout.sentinel(["scan", layout.tree, "--sast", option, alias + "/out/report.json"])
            #expect(layout.hostEntries.isEmpty, "\(option) wrote outside the tree: \(layout.hostEntries) \(result.summary)")
            #expect(result.status == 2, "\(option): \(result.summary)")
            #expect(result.stderr.contains("symbolic link inside"), "\(option): \(result.summary)")
        }
    }

    @Test("an output inside the scanned tree is written, with a warning")
    func reportInsideTheTreeWarns() throws {
        let layout = try Layout()
        let result = try layout.sentinel(["scan", layout.tree, "--sast", "--fail-on", "none", "--output", layout.tree + "/sentinel.json"])
        #expect(result.status == 0, "\(result.summary)")
        #expect(result.stderr.contains("lies inside"), "\(result.summary)")
        #expect(FileManager.default.fileExists(atPath: layout.tree + "/sentinel.json"))
    }

    @Test("heal --out under a directory link in the repository: refused, nothing lands outside")
    func healOutUnderDirectoryLink() throws {
        let layout = try Layout()
        let signal = layout.scratch.path + "/signal.txt"
        try """
        Traceback (most recent call last):
          File "app.py", line 2, in <module>
            os.system(input())
        EOFError: EOF when reading a line
        """.write(toFile: signal, atomically: false, encoding: .utf8)
        let result = try layout.sentinel([
            "heal", "--signal", signal, "--repo", layout.tree, "--verify", "true", "--max-attempts", "1",
            "--out", layout.tree + "/out/heal",
        ])
        #expect(layout.hostEntries.isEmpty, "heal --out wrote outside the repository: \(layout.hostEntries) \(result.summary)")
        #expect(result.status == 2, "\(result.summary)")
    }

    @Test("sandbox run --status-json under a directory link in the workspace: refused before the run")
    func statusUnderDirectoryLink() throws {
        let layout = try Layout()
        let result = try layout.sentinel([
            "sandbox", "run", "--workspace", layout.tree, "--ro", "--status-json", layout.tree + "/out/status.json", "--", "/bin/true",
        ])
        #expect(layout.hostEntries.isEmpty, "--status-json wrote outside the workspace: \(result.summary)")
        #expect(result.status == 2, "\(result.summary)")
    }
}
