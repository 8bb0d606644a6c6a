import Digest
import Fleet
import Foundation
import Store
import Support
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Red-team R9: `--await-approval 100000h` held a worker slot past `--job-timeout` (which covered
/// only the child process) and, when the worker stopped, went back to the queue to hold the next
/// one. The worker bounds the wait now, and a wait that ends without a decision ends the job.
@Suite("Approval waits are bounded by the worker")
struct ApprovalWaitTests {
    /// A queue holding one heal job whose verified fix asks to wait `hours` for a decision, and a
    /// stand-in for `sentinel heal` that "verifies" a fix at once (it writes the patch into --out).
    static func healJob(awaiting hours: Double) throws -> (url: DatabaseURL, queue: JobQueue, id: Int64, executable: String) {
        let scratch = NSTemporaryDirectory() + "approval-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let url = DatabaseURL.sqlite(path: scratch + "/fleet.sqlite")
        let queue = try JobQueue(url: url)
        var spec = FleetJobSpec(kind: .heal, signal: "E   assert 1 == 2\n", verify: "true")
        spec.awaitApproval = hours * 3600
        let id = try queue.submit(JobRequest(kind: .heal, spec: try spec.encoded(), repository: "repo", maxAttempts: 5))
        let executable = scratch + "/fake-sentinel"
        let script = """
            #!/bin/sh
            out=""
            while [ $# -gt 0 ]; do [ "$1" = "--out" ] && out="$2"; shift; done
            mkdir -p "$out" && printf -- '--- a/app.py\\n+++ b/app.py\\n' > "$out/patch.diff"
            exit 0

            """
        try script.write(toFile: executable, atomically: false, encoding: .utf8)
        #expect(chmod(executable, 0o755) == 0)
        return (url, queue, id, executable)
    }

    /// Starts `worker` on a thread of its own; the semaphore is signalled when it has stopped.
    static func start(_ worker: FleetWorker) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            worker.run()
            done.signal()
        }
        return done
    }

    /// The stored heal record of job `id`.
    static func record(_ id: Int64, queue: JobQueue) throws -> [String: Any] {
        let report = try #require(try queue.result(id)?.report)
        return try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])
    }

    @Test("a 100000 h approval wait on a worker with a 15 s job timeout ends by itself: succeeded, timed out, audited, not retried")
    func waitEndsAtTheJobTimeout() throws {
        let (url, queue, id, executable) = try Self.healJob(awaiting: 100_000)
        var options = WorkerOptions(executable: executable, name: "bounded", audit: try .scratch())
        // Room for the stand-in heal to start and record its patch on a loaded machine first.
        options.jobTimeout = 15
        let worker = FleetWorker(url: url, options: options, log: JSONLog(redactor: Redactor(), sink: { _ in }))
        let done = Self.start(worker)
        // Far past the bound, far short of the wait asked for; the worker is not told to stop meanwhile.
        let deadline = Date().addingTimeInterval(240)
        while try queue.job(id)?.state == .queued || queue.job(id)?.state == .running, Date() < deadline { usleep(50_000) }
        let ended = try #require(try queue.job(id))
        worker.stop.advance(to: .abandoning)
        done.wait()

        #expect(ended.state == .succeeded && ended.attempts == 1, "\(ended)")
        let record = try Self.record(id, queue: queue)
        #expect(record["approval"] as? String == "timed out")
        #expect(record["approvalReason"] as? String == "no decision within the worker's job timeout (15 s)")
        let audited = try queue.auditLines(chain: "bounded").filter { $0.contains("\"event\":\"fleet.job.succeeded\"") }
        #expect(audited.count == 1 && audited.first?.contains("\"approval\":\"timed out\"") == true, "\(audited)")
    }

    @Test("the worker records the patch before it waits; an approval of that digest ends the wait, named by the database")
    func patchRecordedBeforeTheWait() throws {
        let (url, queue, id, executable) = try Self.healJob(awaiting: 1)
        let worker = FleetWorker(
            url: url, options: WorkerOptions(executable: executable, name: "holding", audit: try .scratch()),
            log: JSONLog(redactor: Redactor(), sink: { _ in }))
        let done = Self.start(worker)
        let deadline = Date().addingTimeInterval(90)
        while try queue.patch(of: id) == nil, Date() < deadline { usleep(50_000) }
        let patch = try #require(try queue.patch(of: id))
        #expect(patch.awaiting && patch.patch == "--- a/app.py\n+++ b/app.py\n" && patch.digest == SHA256.hex(patch.patch))
        #expect(try queue.job(id)?.state == .running && queue.result(id) == nil)
        #expect(try queue.attempts(of: id).map(\.outcome) == ["awaiting-approval"])
        let decision = try queue.decide(id, digest: String(patch.digest.prefix(12)), approved: true, reason: "fine")
        while try queue.job(id)?.state == .running, Date() < deadline { usleep(50_000) }
        worker.stop.advance(to: .abandoning)
        done.wait()

        let record = try Self.record(id, queue: queue)
        #expect(record["approval"] as? String == "approved" && record["approvalReason"] as? String == "fine")
        #expect(record["patchDigest"] as? String == patch.digest && record["approver"] as? String == decision.approver)
        #expect(try queue.patch(of: id)?.awaiting == false && queue.attempts(of: id).map(\.outcome) == ["succeeded"])
    }

    @Test("a worker stopping during an approval wait ends the job there (timed out), rather than queueing it to wait again")
    func stopEndsTheWait() throws {
        let (url, queue, id, executable) = try Self.healJob(awaiting: 100_000)
        let events = LogLines()
        let worker = FleetWorker(
            url: url, options: WorkerOptions(executable: executable, name: "stopping", audit: try .scratch()),
            log: JSONLog(redactor: Redactor(), sink: { events.append($0) }))
        let done = Self.start(worker)
        let deadline = Date().addingTimeInterval(90)
        while !events.all.contains(where: { $0.contains("\"event\":\"job.awaiting_approval\"") }), Date() < deadline { usleep(50_000) }
        worker.stop.advance(to: .abandoning)
        done.wait()

        let ended = try #require(try queue.job(id))
        #expect(ended.state == .succeeded && ended.attempts == 1, "\(ended)")
        let record = try Self.record(id, queue: queue)
        #expect(record["approval"] as? String == "timed out")
        #expect(record["approvalReason"] as? String == "no decision before worker stopping stopped")
        // The log names the digest a person approves, the one recorded in the database.
        let digest = try #require(try queue.patch(of: id)?.digest)
        #expect(events.all.contains { $0.contains("\"event\":\"job.awaiting_approval\"") && $0.contains("\"patch\":\"\(digest)\"") })
    }
}
