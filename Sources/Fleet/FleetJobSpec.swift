import Foundation
import Store
import Support

/// What a fleet job runs, as `submit` stored it (`JobRequest.spec`): the repository (a local path or
/// a git URL) at a revision, the `sentinel` options, and for a heal the signal itself (the
/// submitter's file is not visible to workers on other machines).
public struct FleetJobSpec: Sendable, Hashable, Codable {
    /// Scan, heal or DAST.
    public var kind: JobKind
    /// A directory on the workers' file system, or a git URL; nil for a DAST job.
    public var repository: String?
    /// The revision to check out (a clone is made); nil scans the directory as it is.
    public var revision: String?
    /// Options passed to `sentinel scan` or `sentinel heal` as they are (checked at submission).
    public var arguments: [String]
    /// The web application of a DAST job.
    public var target: String?
    /// A heal's signal, as read from the submitter's file.
    public var signal: String?
    /// A heal's `--verify` command.
    public var verify: String?
    /// Seconds a heal's verified fix waits for `fleet approve` or `fleet deny` before the job ends.
    public var awaitApproval: Double?

    /// A spec; see the properties.
    public init(
        kind: JobKind, repository: String? = nil, revision: String? = nil, arguments: [String] = [], target: String? = nil,
        signal: String? = nil, verify: String? = nil
    ) {
        self.kind = kind
        self.repository = repository
        self.revision = revision
        self.arguments = arguments
        self.target = target
        self.signal = signal
        self.verify = verify
    }

    /// True for a repository that must be cloned: a URL (`https://`, `ssh://`, `git@`, `file://`).
    public var isRemote: Bool {
        guard let repository else { return false }
        return repository.contains("://") || repository.hasPrefix("git@")
    }

    /// Options a job may not carry: those the worker sets itself, and those naming a file on the
    /// worker's machine (a submitter could otherwise read one back through an error message or a
    /// report). A repository's own `.sentinel.yml` still applies.
    public static let refusedOptions: Set<String> = [
        "--format", "--output", "--write-baseline", "--fleet-record", "--out", "--signal", "--repo", "--verify",
        "--config", "--baseline", "--openapi", "--zap-key-file", "--sarif-root",
    ]

    /// Throws when `arguments` hold a refused option, or a `--profile` that is a path rather than a
    /// profile's name. Both `submit` and the worker check: the queue is writable by submitters.
    public static func checkArguments(_ arguments: [String]) throws {
        for (index, argument) in arguments.enumerated() {
            let name = String(argument.split(separator: "=", maxSplits: 1).first ?? "")
            if refusedOptions.contains(name) {
                throw SentinelError(
                    .invalidInput, "\(name): not allowed in a fleet job (the worker sets it, or it names a file on the worker)")
            }
            if name == "--profile" {
                let value = argument.contains("=") ? String(argument.drop { $0 != "=" }.dropFirst()) : arguments[safe: index + 1] ?? ""
                guard !value.contains("/") else {
                    throw SentinelError(.invalidInput, "--profile: a fleet job names a profile the workers have, not a path")
                }
            }
        }
    }

    /// The proposal a heal job's verified fix waits on (`fleet approve JOB` decides it).
    public static func approvalProposal(of job: Int64) -> String { "job-\(job)" }

    /// The JSON stored in the queue.
    public func encoded() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// Reads the stored JSON of job `id`.
    public static func decode(_ text: String, job id: Int64) throws -> FleetJobSpec {
        do {
            return try JSONDecoder().decode(FleetJobSpec.self, from: Data(text.utf8))
        } catch {
            throw SentinelError(.invalidInput, "job \(id): the stored job description is not valid: \(error)")
        }
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
