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

    /// A request; see the properties.
    public init(options: WebScanOptions, workerExecutable: String) {
        self.options = options
        self.workerExecutable = workerExecutable
    }
}
