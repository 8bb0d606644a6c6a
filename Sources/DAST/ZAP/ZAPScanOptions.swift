/// What one ZAP scan does: which URL, whether to attack, how long it may take, how it polls.
public struct ZAPScanOptions: Sendable, Hashable {
    /// The URL to spider (and attack): ZAP's starting point and the `baseurl` alerts are read for.
    public var targetURL: String
    /// Whether to run ZAP's active scanner after the spider (it sends attacks).
    public var active: Bool
    /// The whole scan's deadline, seconds from its start; on it the scans are stopped and what
    /// ZAP found so far is reported, with a notice.
    public var maxDuration: Double
    /// Seconds between two status polls.
    public var pollInterval: Double
    /// The spider's `maxChildren` (0: no limit).
    public var maxChildren: Int
    /// Whether to ask ZAP to fetch the target first (`core/action/accessUrl`), so that it is in
    /// ZAP's site tree before the spider starts.
    public var accessFirst: Bool
    /// Alerts read per `core/view/alerts` page.
    public var alertPageSize: Int
    /// The most alerts read in all; the rest is left with a notice.
    public var maxAlerts: Int

    /// Options for a scan of `targetURL`; see the properties for the rest.
    public init(
        targetURL: String, active: Bool = false, maxDuration: Double = 600, pollInterval: Double = 2,
        maxChildren: Int = 0, accessFirst: Bool = true, alertPageSize: Int = 500, maxAlerts: Int = 10_000
    ) {
        self.targetURL = targetURL
        self.active = active
        self.maxDuration = maxDuration
        self.pollInterval = pollInterval
        self.maxChildren = maxChildren
        self.accessFirst = accessFirst
        self.alertPageSize = alertPageSize
        self.maxAlerts = maxAlerts
    }
}
