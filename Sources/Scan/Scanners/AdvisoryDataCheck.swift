import Foundation
import SCA
import ScanCore

/// Whether the OSV data can vouch for the ecosystems a scan's pinned dependencies use: each one
/// must have advisories (else its dependencies are unchecked, not clean) whose newest `modified`
/// is within `context.maxDatabaseAge` (else what was published since is missed). Each problem is
/// a failure (the scan exits 3 naming the command that fixes it) unless the user opted out
/// (`--allow-missing-db`, `--allow-stale-db`), when it is a warning.
struct AdvisoryDataCheck {
    /// One clause per problem the user did not accept.
    private(set) var failures: [String] = []
    /// One line per problem the user accepted.
    private(set) var warnings: [String] = []

    /// The failures as the tool's one-line message; nil when there are none.
    var failureMessage: String? { failures.isEmpty ? nil : failures.joined(separator: "; ") }

    init(_ database: OSVDatabase, ecosystems: Set<String>, context: ScanContext, now: Date = Date()) throws {
        var missing: [String] = []
        var stale: [String] = []
        for ecosystem in Set(ecosystems.map(FeedState.exportName)).sorted() {
            guard let data = try database.dataAge(of: ecosystem, now: now) else {
                missing.append(ecosystem)
                continue
            }
            let age = data.seconds(at: now)
            guard age > context.maxDatabaseAge else { continue }
            stale.append("the \(ecosystem) advisories are \(FeedState.describeAge(age)) old (newest modified \(data.newestModified))")
        }
        if !missing.isEmpty {
            let clause = "the OSV database holds no \(missing.joined(separator: " or ")) advisories"
            if context.requireDatabase {
                let update = missing.map { "--ecosystem \($0)" }.joined(separator: " ")
                failures.append(clause + ": run `sentinel db update \(update)`, or pass --allow-missing-db")
            } else {
                warnings.append(clause + ": those dependencies were not checked, as --allow-missing-db asks")
            }
        }
        if !stale.isEmpty {
            let clause = stale.joined(separator: ", ") + ", over the \(FeedState.describeAge(context.maxDatabaseAge)) limit"
            if context.allowStaleDatabase {
                warnings.append(clause + ": scanned with them as --allow-stale-db asks; `sentinel db update` refreshes them")
            } else {
                failures.append(clause + ": run `sentinel db update`, or pass --allow-stale-db")
            }
        }
    }
}
