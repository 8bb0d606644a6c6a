import Store

/// The metrics one worker exposes on `/metrics` (Prometheus text format).
public struct WorkerMetrics: Sendable {
    /// The registry the server renders.
    public let registry: MetricsRegistry
    let claimed: Counter
    let succeeded: Counter
    let failed: Counter
    let retried: Counter
    let dead: Counter
    let released: Counter
    let leaseExpiries: Counter
    let leasesLost: Counter
    let databaseErrors: Counter
    let queueDepth: Gauge
    let running: Gauge
    let chainRefused: Gauge
    let duration: Histogram
    let claimLatency: Histogram
    let setupSeconds: Histogram

    /// The worker metrics in `registry`.
    public init(registry: MetricsRegistry = MetricsRegistry()) {
        self.registry = registry
        claimed = registry.counter("sentinel_fleet_jobs_claimed_total", help: "Jobs this worker claimed.")
        succeeded = registry.counter("sentinel_fleet_jobs_succeeded_total", help: "Jobs this worker finished with a result.")
        failed = registry.counter("sentinel_fleet_jobs_failed_total", help: "Jobs that failed for good (bad input).")
        retried = registry.counter("sentinel_fleet_jobs_retried_total", help: "Failed attempts queued again after a backoff.")
        dead = registry.counter("sentinel_fleet_jobs_dead_total", help: "Jobs dead-lettered after their last attempt.")
        released = registry.counter("sentinel_fleet_jobs_released_total", help: "Jobs given back unrun (stopping, lock busy).")
        leaseExpiries = registry.counter(
            "sentinel_fleet_lease_expiries_total", help: "Expired leases (of any worker) this worker returned to the queue.")
        leasesLost = registry.counter("sentinel_fleet_leases_lost_total", help: "Jobs this worker stopped because its lease was lost.")
        databaseErrors = registry.counter("sentinel_fleet_database_errors_total", help: "Failed statements (server down, network).")
        queueDepth = registry.gauge("sentinel_fleet_queue_depth", help: "Jobs per state, as last read by this worker.")
        running = registry.gauge("sentinel_fleet_jobs_running", help: "Jobs this worker is running now.")
        chainRefused = registry.gauge(
            "sentinel_fleet_worker_chain_refused",
            help: "1 when this worker's audit chain refused an entry: it claims no more jobs (unhealthy), else 0.")
        duration = registry.histogram(
            "sentinel_fleet_job_duration_seconds", help: "Wall time of a job's run.", buckets: MetricsRegistry.durationBuckets)
        claimLatency = registry.histogram(
            "sentinel_fleet_claim_seconds", help: "Time of a claim statement that returned a job.",
            buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1])
        setupSeconds = registry.histogram(
            "sentinel_fleet_job_setup_seconds",
            help: "Overhead around a job's own run: checkout, process start, result upload.",
            buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10])
        showAtZero()
    }

    /// Every series at zero from the start, for every known label value: a dashboard's rate()
    /// sees the first event, and an absent series never reads as "no such metric".
    private func showAtZero() {
        for kind in JobKind.allCases {
            let labels = MetricLabels([("kind", kind.rawValue)])
            for counter in [claimed, succeeded, failed, retried, dead, released] { counter.increment(by: 0, labels: labels) }
            duration.show(labels: labels)
            setupSeconds.show(labels: labels)
        }
        // Counted without a kind: the reaper's dead letters (of any worker's jobs), leases, errors.
        for counter in [dead, leaseExpiries, leasesLost, databaseErrors] { counter.increment(by: 0) }
        claimLatency.show()
        running.set(0)
        chainRefused.set(0)
        record(QueueCounts())
    }

    func record(_ counts: QueueCounts) {
        for (state, value) in [
            ("queued", counts.queued), ("running", counts.running), ("succeeded", counts.succeeded), ("failed", counts.failed),
            ("dead", counts.dead), ("cancelled", counts.cancelled),
        ] {
            queueDepth.set(Double(value), labels: MetricLabels([("state", state)]))
        }
    }
}
