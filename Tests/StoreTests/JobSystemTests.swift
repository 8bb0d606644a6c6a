import Foundation
import Store
import Support
import Synchronization
import Testing
import TestSupport

/// The job system teams expect (issue 58), identical on SQLite and PostgreSQL: unique jobs (atomic
/// under concurrency), retries by failure class with jittered backoff, dead letters retried and
/// deleted, pruning, filtered and paged listings, and cron schedules.
@Suite("Job system: unique jobs, retry classes, dead letters, prune, listing, cron (SQLite and PostgreSQL)")
struct JobSystemTests {
    static func request(_ repository: String = "repo", kind: JobKind = .scan, maxAttempts: Int = 3) -> JobRequest {
        JobRequest(kind: kind, spec: "{}", repository: repository, maxAttempts: maxAttempts)
    }

    @Test("a second submit with the same key returns the first job; a finished one no longer counts", arguments: QueueBackend.available)
    func uniqueAmongActive(_ backend: QueueBackend) throws {
        let queue = try JobQueue(url: backend.freshURL(), retry: RetryPolicy(base: 0, maximum: 0))
        let key = JobUniqueness(key: "scan:shop@main")
        let first = try queue.submit(Self.request(), unique: key)
        #expect(!first.existing)
        #expect(try queue.submit(Self.request(), unique: key) == Submission(id: first.id, existing: true))
        #expect(try queue.submit(Self.request(), unique: JobUniqueness(key: "other")).existing == false)
        #expect(try queue.job(first.id)?.uniqueKey == "scan:shop@main")
        // Running still holds the key; succeeded does not.
        let lease = try #require(try queue.claim(owner: "w", leaseSeconds: 60)?.lease)
        #expect(lease.jobID == first.id)
        #expect(try queue.submit(Self.request(), unique: key) == Submission(id: first.id, existing: true))
        #expect(try queue.complete(lease, result: JobResult(exitStatus: 0, report: "{}"), audit: { _ in }))
        let again = try queue.submit(Self.request(), unique: key)
        #expect(!again.existing && again.id != first.id)
    }

    @Test("--unique-for: finished jobs in the same window count too", arguments: QueueBackend.available)
    func uniqueWithinWindow(_ backend: QueueBackend) throws {
        let queue = try JobQueue(url: backend.freshURL())
        let key = JobUniqueness(key: "nightly", window: 86_400)
        let first = try queue.submit(Self.request(), unique: key)
        let lease = try #require(try queue.claim(owner: "w", leaseSeconds: 60)?.lease)
        #expect(try queue.complete(lease, result: JobResult(exitStatus: 0, report: "{}"), audit: { _ in }))
        #expect(try queue.submit(Self.request(), unique: key) == Submission(id: first.id, existing: true))
        #expect(throws: SentinelError.self) { try queue.submit(Self.request(), unique: JobUniqueness(key: "")) }
        #expect(throws: SentinelError.self) {
            try queue.submit(Self.request(), unique: JobUniqueness(key: String(repeating: "k", count: 513)))
        }
    }

    @Test("N concurrent submits of the same key make one job, and every caller gets its id", arguments: QueueBackend.available)
    func uniqueUnderConcurrency(_ backend: QueueBackend) throws {
        let url = try backend.freshURL()
        _ = try JobQueue(url: url)
        let results = Mutex<[Result<Submission, SentinelError>]>([])
        let threads = 8
        let group = DispatchGroup()
        for _ in 0..<threads {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    let queue = try JobQueue(url: url)
                    let submission = try queue.submit(Self.request(), unique: JobUniqueness(key: "same"))
                    results.withLock { $0.append(.success(submission)) }
                } catch {
                    results.withLock { $0.append(.failure(SentinelError(.database, "\(error)"))) }
                }
            }
        }
        #expect(group.wait(timeout: .now() + 300) == .success)
        let submissions = try results.withLock { try $0.map { try $0.get() } }
        #expect(submissions.count == threads)
        #expect(Set(submissions.map(\.id)).count == 1)
        #expect(submissions.filter { !$0.existing }.count == 1)
        #expect(try JobQueue(url: url).counts().queued == 1)
    }

    @Test(
        "each failure class follows its rule: invalid fails at once, checkout retries, timeout stops early",
        arguments: QueueBackend.available)
    func retryByClass(_ backend: QueueBackend) throws {
        let policy = RetryPolicy(base: 0, maximum: 0, rules: [.checkout: RetryRule(attempts: 3, base: 0, cap: 0)])
        let queue = try JobQueue(url: backend.freshURL(), retry: policy)
        let invalid = try queue.submit(Self.request(maxAttempts: 5))
        var lease = try #require(try queue.claim(owner: "w", leaseSeconds: 60)?.lease)
        #expect(try queue.fail(lease, reason: "transport 'ftp' not allowed", failure: .invalid, audit: { _ in }) == .failed)
        let failed = try #require(try queue.job(invalid))
        #expect(failed.failureClass == .invalid && failed.lastError == "invalid: transport 'ftp' not allowed" && failed.attempts == 1)

        // checkout: 3 attempts of the job's 5.
        let checkout = try queue.submit(Self.request(maxAttempts: 5))
        for attempt in 1...3 {
            lease = try #require(try queue.claim(owner: "w", leaseSeconds: 60)?.lease)
            #expect(lease.jobID == checkout)
            #expect(try queue.fail(lease, reason: "clone failed", failure: .checkout, audit: { _ in }) == (attempt < 3 ? .queued : .dead))
        }
        let dead = try #require(try queue.job(checkout))
        #expect(dead.failureClass == .checkout && dead.lastError == "checkout: clone failed (attempt 3 of 3; dead-lettered)")
        #expect(
            try queue.jobs(
                matching: {
                    var f = JobFilter(); f.states = [.dead]; return f
                }()
            ).jobs.map(\.failureClass) == [.checkout])

        // timeout: 2 attempts by default; a rule never exceeds the job's own maximum.
        #expect(policy.decide(afterAttempt: 1, maxAttempts: 5, failure: .timeout).state == .queued)
        #expect(policy.decide(afterAttempt: 2, maxAttempts: 5, failure: .timeout).state == .dead)
        #expect(policy.decide(afterAttempt: 2, maxAttempts: 2, failure: .checkout).state == .dead)
        #expect(policy.decide(afterAttempt: 4, maxAttempts: 5, failure: .tool).state == .queued)
    }

    @Test("full jitter: every delay within zero and the capped exponential step; the steps differ")
    func jitter() {
        let policy = RetryPolicy(base: 10, maximum: 3600, rules: [.checkout: RetryRule(base: 30, cap: 100)])
        var generator = SystemRandomNumberGenerator()
        var delays: Set<Double> = []
        for attempt in 1...8 {
            for _ in 0..<50 {
                let decision = policy.decide(afterAttempt: attempt, maxAttempts: 20, failure: .checkout, using: &generator)
                #expect(decision.state == .queued)
                #expect(decision.delay >= 0 && decision.delay <= min(100, 30 * Double(1 << (attempt - 1))))
                delays.insert(decision.delay)
            }
        }
        #expect(delays.count > 100, "jittered, not one fixed delay")
        #expect(policy.decide(afterAttempt: 1, maxAttempts: 5, failure: .invalid).delay == 0)
    }

    @Test("--retry CLASS=ATTEMPTS[:BASE[:CAP]] is read with bounds")
    func ruleParsing() {
        #expect(RetryRule.parse("checkout=8:30s:1h")?.1 == RetryRule(attempts: 8, base: 30, cap: 3600))
        #expect(RetryRule.parse("invalid=0")?.0 == .invalid && RetryRule.parse("invalid=0")?.1 == .never)
        #expect(RetryRule.parse("lease-expired=3:5s")?.1 == RetryRule(attempts: 3, base: 5))
        for bad in ["checkout", "nope=3", "tool=101", "tool=-1", "tool=3:soon", "tool=3:1h:1m", "tool=3:1s:2s:3s", "tool=3:2d", "=3"] {
            #expect(RetryRule.parse(bad) == nil, "\(bad)")
        }
    }

    @Test(
        "retry puts a dead job back with its attempts reset; delete removes a finished one and its rows, never a running one",
        arguments: QueueBackend.available)
    func deadLetters(_ backend: QueueBackend) throws {
        let queue = try JobQueue(url: backend.freshURL(), retry: RetryPolicy(base: 0, maximum: 0))
        let id = try queue.submit(Self.request(maxAttempts: 1))
        let lease = try #require(try queue.claim(owner: "w", leaseSeconds: 60)?.lease)
        #expect(try queue.fail(lease, reason: "crashed", failure: .tool, audit: { _ in }) == .dead)
        #expect(try queue.requeue(id, audit: { _ in }) == .requeued(was: .dead))
        let requeued = try #require(try queue.job(id))
        #expect(requeued.state == .queued && requeued.attempts == 0 && requeued.lastError == nil && requeued.failureClass == nil)
        #expect(try queue.requeue(id, audit: { _ in }) == .refused(.queued))
        #expect(try queue.requeue(999_999, audit: { _ in }) == .notFound)
        #expect(try queue.delete(id, audit: { _ in }) == .refused(.queued))
        let running = try #require(try queue.claim(owner: "w", leaseSeconds: 60)?.lease)
        #expect(try queue.delete(id, audit: { _ in }) == .refused(.running))
        let finding = StoredFinding(fingerprint: "f", ruleID: "R", severity: "low", location: "a.py:1")
        #expect(try queue.complete(running, result: JobResult(exitStatus: 1, report: "{}", findings: [finding]), audit: { _ in }))
        #expect(try queue.recordProposal("change", jobID: id))
        #expect(try queue.delete(id, audit: { _ in }) == .deleted(was: .succeeded))
        #expect(try queue.job(id) == nil && queue.result(id) == nil)
        #expect(try queue.delete(id, audit: { _ in }) == .notFound)

        // A dead job whose unique key another queued job holds stays dead.
        let key = JobUniqueness(key: "k")
        let old = try queue.submit(Self.request(maxAttempts: 1), unique: key).id
        let oldLease = try #require(try queue.claim(owner: "w", leaseSeconds: 60)?.lease)
        #expect(try queue.fail(oldLease, reason: "boom", failure: .tool, audit: { _ in }) == .dead)
        let newer = try queue.submit(Self.request(), unique: key)
        #expect(!newer.existing)
        #expect(try queue.requeue(old, audit: { _ in }) == .duplicate(newer.id))
        #expect(try queue.jobIDs(in: .dead) == [old])
    }

    @Test("prune deletes finished jobs older than the age in batches, never queued or running ones", arguments: QueueBackend.available)
    func prune(_ backend: QueueBackend) throws {
        let queue = try JobQueue(url: backend.freshURL())
        var finished: [Int64] = []
        for _ in 0..<7 {
            let id = try queue.submit(Self.request())
            let lease = try #require(try queue.claim(owner: "w", leaseSeconds: 60)?.lease)
            let finding = StoredFinding(fingerprint: "f\(id)", ruleID: "R", severity: "low", location: "a.py:1")
            #expect(try queue.complete(lease, result: JobResult(exitStatus: 0, report: "{}", findings: [finding]), audit: { _ in }))
            finished.append(id)
        }
        let running = try queue.submit(Self.request())
        _ = try #require(try queue.claim(owner: "w", leaseSeconds: 60))
        let queued = try queue.submit(Self.request())
        try queue.cancel(try queue.submit(Self.request()), audit: { _ in })
        // Nothing ended an hour ago.
        #expect(try queue.prune(olderThan: 3600, dryRun: true) == 0)
        Thread.sleep(forTimeInterval: 0.05)
        #expect(try queue.prune(olderThan: 0.01, dryRun: true) == 8)
        #expect(try queue.counts().succeeded == 7)
        #expect(try queue.prune(olderThan: 0.01, batch: 3) == 8)
        #expect(try queue.job(running)?.state == .running && queue.job(queued)?.state == .queued)
        for id in finished { #expect(try queue.job(id) == nil && queue.result(id) == nil) }
        #expect(try queue.prune(olderThan: 0.01) == 0)
    }

    @Test("listing: filters by repository, kind, state and time combine; keyset pages follow the cursor", arguments: QueueBackend.available)
    func listing(_ backend: QueueBackend) throws {
        let queue = try JobQueue(url: backend.freshURL())
        var ids: [Int64] = []
        for index in 0..<12 {
            ids.append(try queue.submit(Self.request(index % 2 == 0 ? "shop" : "blog", kind: index % 3 == 0 ? .dast : .scan)))
        }
        var filter = JobFilter()
        filter.repository = "shop"
        #expect(try queue.jobs(matching: filter).jobs.map(\.id) == ids.enumerated().filter { $0.offset % 2 == 0 }.map(\.element).reversed())
        filter.kinds = [.dast]
        #expect(try queue.jobs(matching: filter).jobs.map(\.id) == [ids[6], ids[0]])
        filter = JobFilter()
        filter.states = [.queued, .running]
        filter.limit = 5
        var seen: [Int64] = []
        var page = try queue.jobs(matching: filter)
        while true {
            seen += page.jobs.map(\.id)
            guard let next = page.next else { break }
            filter.after = next
            page = try queue.jobs(matching: filter)
        }
        #expect(seen == ids.reversed())
        filter = JobFilter()
        filter.states = [.succeeded]
        #expect(try queue.jobs(matching: filter).jobs.isEmpty)
        filter = JobFilter()
        filter.since = Date().timeIntervalSince1970 + 3600
        #expect(try queue.jobs(matching: filter).jobs.isEmpty)
        filter.since = Date().timeIntervalSince1970 - 3600
        #expect(try queue.jobs(matching: filter).jobs.count == 12)
    }

    @Test(
        "a cron schedule is first due at its next time in its zone, submits its job when due, and moves on",
        arguments: QueueBackend.available)
    func cronSchedule(_ backend: QueueBackend) throws {
        let url = try backend.freshURL()
        let queue = try JobQueue(url: url)
        let cron = try CronSchedule(expression: CronExpression("0 3 * * *"), timeZone: "Europe/Paris")
        try queue.saveSchedule(Schedule(name: "nightly", request: Self.request(), interval: 0, cron: cron))
        let saved = try #require(try queue.schedules().first)
        #expect(saved.cron == cron && saved.interval == 0)
        let expected = try #require(cron.next(after: Date()))
        #expect(abs(saved.nextRun - expected.timeIntervalSince1970) < 1)
        #expect(try queue.holdLeadership(JobQueue.schedulerLeadership, leader: "scheduler", seconds: 60))
        #expect(try queue.submitDueSchedules(asLeader: "scheduler") == [])
        // Due now: submitted once, then at the next 03:00 in Paris.
        try queue.saveSchedule(Schedule(name: "nightly", request: Self.request(), interval: 0, nextRun: 1, cron: cron))
        let submitted = try #require(try queue.submitDueSchedules(asLeader: "scheduler"))
        #expect(submitted.count == 1)
        #expect(try queue.submitDueSchedules(asLeader: "scheduler") == [])
        let moved = try #require(try queue.schedules().first)
        #expect(abs(moved.nextRun - expected.timeIntervalSince1970) < 1)
        // The interval schedules of before are untouched.
        try queue.saveSchedule(Schedule(name: "hourly", request: Self.request(), interval: 3600))
        #expect(try queue.schedules().map(\.cron) == [nil, cron])
    }
}
