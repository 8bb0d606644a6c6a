// `sentinel-bench queue`: the fleet queue's own ceiling (issue 32), no scan work. Fills an empty
// queue with N no-op jobs through one connection (the submit rate), then W threads, each with its
// own connection as a worker slot has, claim (`FOR UPDATE SKIP LOCKED`) and complete with an empty
// result until M jobs are done. Prints one JSON line: throughput and claim/complete latencies.
//
//   sentinel-bench queue [URL] --queued 10000 --workers 4 [--jobs M]
//
// URL defaults to SENTINEL_DATABASE_URL (so a password stays off the command line); the database
// must hold no fleet jobs yet. bench/fleet-throughput.py runs it per worker count.
#if canImport(Glibc)
    import Glibc
#endif
import Dispatch
import Foundation
import Store
import Synchronization

enum QueueBench {
    static let usage = "usage: sentinel-bench queue [URL] --queued N --workers W [--jobs M]  (URL default: SENTINEL_DATABASE_URL)"

    struct Options {
        var url = ""
        var queued = 10_000
        var workers = 1
        var jobs: Int?
    }

    /// What the worker threads share: tickets (one per job to claim) and their samples.
    final class Shared: Sendable {
        let tickets = Atomic<Int>(0)
        let claimMs = Mutex<[Double]>([])
        let completeMs = Mutex<[Double]>([])
        let errors = Mutex<[String]>([])
        let emptyClaims = Atomic<Int>(0)
    }

    static func run(_ arguments: [String]) {
        let options: Options
        do {
            options = try parse(arguments)
        } catch {
            fail("\(error)\n\(usage)", status: 2)
        }
        let url: DatabaseURL
        let queue: JobQueue
        do {
            url = try DatabaseURL(parsing: options.url)
            queue = try JobQueue(url: url)
            let before = try queue.counts()
            let total = before.queued + before.running + before.succeeded + before.failed + before.dead + before.cancelled
            guard total == 0 else { fail("\(url.redacted) already holds \(total) fleet jobs: use an empty database", status: 1) }
        } catch {
            fail("cannot open the queue: \(error)", status: 1)
        }
        let jobs = options.jobs ?? options.queued

        // Submitting: one connection, one transaction (INSERT + NOTIFY) per job, as `fleet submit` does.
        let request = JobRequest(kind: .scan, spec: #"{"kind":"scan","arguments":[]}"#, repository: "/bench/noop")
        let submitStart = now()
        do {
            for index in 0..<options.queued {
                try queue.submit(request)
                if (index + 1) % 1000 == 0 {
                    log("submitted \(index + 1)/\(options.queued)")
                }
            }
        } catch {
            fail("submit failed: \(error)", status: 1)
        }
        let submitSeconds = seconds(since: submitStart)

        // Claiming and completing: W connections opened first, then started together.
        let shared = Shared()
        let ready = DispatchGroup()
        let finished = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        for slot in 0..<options.workers {
            ready.enter()
            finished.enter()
            let thread = Thread {
                work(slot: slot, url: url, jobs: jobs, shared: shared, ready: ready, start: start)
                finished.leave()
            }
            thread.name = "queue-bench-\(slot)"
            thread.start()
        }
        ready.wait()
        let runStart = now()
        for _ in 0..<options.workers { start.signal() }
        finished.wait()
        let runSeconds = seconds(since: runStart)

        let errors = shared.errors.withLock { $0 }
        guard errors.isEmpty else { fail(errors.joined(separator: "\n"), status: 1) }
        let claims = shared.claimMs.withLock { $0 }.sorted()
        let completes = shared.completeMs.withLock { $0 }.sorted()
        let succeeded: Int
        do {
            succeeded = try queue.counts().succeeded
        } catch {
            fail("counts failed: \(error)", status: 1)
        }
        guard succeeded == jobs, completes.count == jobs else {
            fail("expected \(jobs) jobs succeeded, the queue says \(succeeded) (\(completes.count) completed here)", status: 1)
        }
        let fields: [(String, String)] = [
            ("workers", String(options.workers)),
            ("queued", String(options.queued)),
            ("jobs", String(jobs)),
            ("seconds", number(runSeconds)),
            ("jobsPerSecond", number(Double(jobs) / runSeconds, digits: 1)),
            ("claimMs", summary(claims)),
            ("completeMs", summary(completes)),
            ("emptyClaims", String(shared.emptyClaims.load(ordering: .relaxed))),
            ("submitSeconds", number(submitSeconds)),
            ("submitPerSecond", number(Double(options.queued) / submitSeconds, digits: 1)),
        ]
        print("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
    }

    /// One worker slot: opens its connection, waits for the start, then claims and completes
    /// while tickets last (so exactly `jobs` claims succeed).
    static func work(slot: Int, url: DatabaseURL, jobs: Int, shared: Shared, ready: DispatchGroup, start: DispatchSemaphore) {
        let queue: JobQueue
        do {
            queue = try JobQueue(url: url)
        } catch {
            shared.errors.withLock { $0.append("slot \(slot): cannot connect: \(error)") }
            ready.leave()
            return
        }
        ready.leave()
        start.wait()
        var claimMs: [Double] = []
        var completeMs: [Double] = []
        claimMs.reserveCapacity(jobs)
        completeMs.reserveCapacity(jobs)
        let owner = "bench:\(getpid()):\(slot)"
        let result = JobResult(exitStatus: 0, report: "")
        do {
            while shared.tickets.wrappingAdd(1, ordering: .relaxed).oldValue < jobs {
                let claimStart = now()
                guard let job = try queue.claim(owner: owner, leaseSeconds: 300), let lease = job.lease else {
                    // Every job is due, so none left means another slot's failure, reported there.
                    shared.emptyClaims.add(1, ordering: .relaxed)
                    break
                }
                claimMs.append(seconds(since: claimStart) * 1000)
                let completeStart = now()
                // The queue alone: the audit entry a worker appends in the same transaction is not measured here.
                guard try queue.complete(lease, result: result, audit: { _ in }) else {
                    shared.errors.withLock { $0.append("slot \(slot): job \(job.id): lease lost on complete") }
                    break
                }
                completeMs.append(seconds(since: completeStart) * 1000)
            }
        } catch {
            shared.errors.withLock { $0.append("slot \(slot): \(error)") }
        }
        shared.claimMs.withLock { $0.append(contentsOf: claimMs) }
        shared.completeMs.withLock { $0.append(contentsOf: completeMs) }
    }

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var url: String?
        var rest = arguments[...]
        func count(_ name: String) throws -> Int {
            guard let text = rest.popFirst(), let value = Int(text), value > 0 else {
                throw BenchError("\(name) needs a positive number")
            }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--queued": options.queued = try count(argument)
            case "--workers": options.workers = try count(argument)
            case "--jobs": options.jobs = try count(argument)
            case _ where argument.hasPrefix("-"): throw BenchError("unknown option \(argument)")
            default:
                guard url == nil else { throw BenchError("one URL only") }
                url = argument
            }
        }
        guard let url = url ?? ProcessInfo.processInfo.environment["SENTINEL_DATABASE_URL"], !url.isEmpty else {
            throw BenchError("no database: give a URL or set SENTINEL_DATABASE_URL")
        }
        options.url = url
        if let jobs = options.jobs, jobs > options.queued {
            throw BenchError("--jobs \(jobs) is more than --queued \(options.queued)")
        }
        return options
    }

    /// `{"p50":…,"p95":…,"p99":…,"max":…}` of sorted milliseconds (nearest rank).
    static func summary(_ sorted: [Double]) -> String {
        func rank(_ quantile: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let index = Int((quantile * Double(sorted.count)).rounded(.up)) - 1
            return sorted[min(max(index, 0), sorted.count - 1)]
        }
        let parts = [("p50", rank(0.5)), ("p95", rank(0.95)), ("p99", rank(0.99)), ("max", sorted.last ?? 0)]
        return "{" + parts.map { "\"\($0.0)\":\(number($0.1))" }.joined(separator: ",") + "}"
    }

    static func number(_ value: Double, digits: Int = 3) -> String {
        value.isFinite ? String(format: "%.\(digits)f", value) : "null"
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    static func seconds(since start: UInt64) -> Double { Double(now() - start) / 1e9 }

    static func log(_ message: String) {
        FileHandle.standardError.write(Data("sentinel-bench queue: \(message)\n".utf8))
    }

    static func fail(_ message: String, status: Int32) -> Never {
        log(message)
        exit(status)
    }

    struct BenchError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
