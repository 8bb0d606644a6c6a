import Foundation

/// Who runs a fleet command that writes the audit chain (`fleet approve`, `deny`, `cancel`), and the
/// chain that person's entries go to: one per writer identity, so that operators and workers never
/// wait on each other's appends.
enum FleetOperator {
    /// The operator's name as entries record it (`$USER`).
    static var current: String { ProcessInfo.processInfo.environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "operator" }

    /// The audit chain of `person`'s entries: `operator:NAME`, apart from every worker's (a worker's
    /// chain is its name, `host:pid`).
    static func chain(of person: String) -> String { "operator:" + person }
}
