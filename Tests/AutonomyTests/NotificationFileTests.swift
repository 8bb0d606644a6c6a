#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Synchronization
import Testing
@testable import Autonomy
import Support
import TestSupport

/// The notification file is appended through `AppendOnlyFile`: a FIFO, device or link at its name
/// is refused at once, never opened for writing (a FIFO without a reader would block the run for good).
@Suite struct NotificationFileTests {
    final class Outcome: Sendable { let value = Mutex<String?>(nil) }

    @Test("a FIFO at the notification file is refused without blocking")
    func fifoIsRefused() throws {
        let directory = try TemporaryDirectory.make("notify-file")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/notify.jsonl"
        #expect(mkfifo(fifo, 0o600) == 0)
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        Thread.detachNewThread {
            outcome.value.withLock { $0 = Notifier.append(Array("{}\n".utf8), to: fifo) }
            done.signal()
        }
        // Ten times the headroom anything reasonable needs; a blocked open is released by opening
        // the reading end, so the test ends either way.
        if done.wait(timeout: .now() + 30) == .timedOut {
            let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            done.wait()
            close(reader)
            Issue.record("appending to a FIFO blocked until a reader came")
        }
        let failure = try #require(outcome.value.withLock { $0 })
        #expect(failure.contains("not a regular file"), "\(failure)")
    }

    @Test("a link at the notification file is refused and its target untouched")
    func linkIsRefused() throws {
        let directory = try TemporaryDirectory.make("notify-file")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data("keep\n".utf8).write(to: URL(fileURLWithPath: directory + "/target"))
        try FileManager.default.createSymbolicLink(atPath: directory + "/notify.jsonl", withDestinationPath: "target")
        let failure = try #require(Notifier.append(Array("{}\n".utf8), to: directory + "/notify.jsonl"))
        #expect(failure.contains("symbolic link"), "\(failure)")
        #expect(try String(contentsOfFile: directory + "/target", encoding: .utf8) == "keep\n")
    }

    @Test("lines are appended to a regular file, created private")
    func appendsToRegularFile() throws {
        let directory = try TemporaryDirectory.make("notify-file")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/notify.jsonl"
        #expect(Notifier.append(Array("a\n".utf8), to: path) == nil)
        #expect(Notifier.append(Array("b\n".utf8), to: path) == nil)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "a\nb\n")
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }
}
