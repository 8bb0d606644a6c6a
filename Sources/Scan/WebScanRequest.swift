import DAST

/// A `--dast` scan as the CLI asks for it: the engine's options, the binary to run as its
/// sandboxed worker, and an optional ZAP instance to drive as well.
public struct WebScanRequest: Sendable {
    /// The native engine's options (target, active, budgets, seeds).
    public var options: WebScanOptions
    /// The `sentinel` binary the worker runs (the running one).
    public var workerExecutable: String
    /// A ZAP API to drive as well (`--zap URL`), nil for none.
    public var zapURL: String?
    /// The file holding that API's key (`--zap-key-file`).
    public var zapKeyFile: String?
    /// `--prove` without a URL: the application is started from the configuration's `prove:`
    /// declaration (`ScanPlan` fills `application` and the target from it).
    public var startsApplication = false
    /// The application to start, in a sandbox whose network the worker shares.
    public var application: ProofApplication?
    /// The tree the application runs from (a writable copy of it): the scanned directory.
    public var applicationRoot: String?

    /// A request; see the properties.
    public init(options: WebScanOptions, workerExecutable: String) {
        self.options = options
        self.workerExecutable = workerExecutable
    }
}
