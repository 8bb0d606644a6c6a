import ArgumentParser
import Digest
import Store
import Support

/// `--unique`, `--unique-key` and `--unique-for` of `fleet submit`: a second submission of the
/// same job returns the first one's id (River's UniqueOpts, Oban's unique jobs).
struct FleetUniqueOptions: ParsableArguments {
    @Flag(
        help:
            "Submit only if no queued or running job has the same spec (kind, repository, branch, revision and options); else print that job's id."
    )
    var unique = false
    @Option(
        name: .customLong("unique-key"),
        help: ArgumentHelp(
            "Submit only if no queued or running job holds this key (at most 512 bytes); implies --unique.", valueName: "key"))
    var uniqueKey: String?
    @Option(
        name: .customLong("unique-for"),
        help: ArgumentHelp(
            "Also count finished jobs submitted in the same window of this length (windows aligned to the epoch, e.g. 1h, 1d); implies --unique.",
            valueName: "duration"))
    var uniqueFor: DurationArgument?

    func validate() throws {
        if let uniqueKey, uniqueKey.isEmpty || uniqueKey.utf8.count > 512 {
            throw ValidationError("--unique-key: must be 1 to 512 bytes")
        }
        if let uniqueFor, !(1...(366 * 86_400)).contains(uniqueFor.seconds) {
            throw ValidationError("--unique-for: must be 1s to 366d")
        }
    }

    /// The uniqueness asked for, nil for none; without `--unique-key` the key is derived from
    /// `request`: its kind, repository, branch and spec (revision, options, signal, target).
    func uniqueness(for request: JobRequest) -> JobUniqueness? {
        guard unique || uniqueKey != nil || uniqueFor != nil else { return nil }
        let key =
            uniqueKey.map { "key:" + $0 }
            ?? "spec:" + SHA256.hex([request.kind.rawValue, request.repository, request.branch, request.spec].joined(separator: "\n"))
        return JobUniqueness(key: key, window: uniqueFor?.seconds)
    }
}
