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

    /// The options a job may carry, with whether each takes a value: an allow-list, so that nothing
    /// the worker sets itself (`--format`, `--output`, `--out`, `--level`), nothing naming a file or a
    /// host of the worker's (`--config`, `--baseline`, `--policy`, `--package-index`, `--zap`...)
    /// and no path among the options reaches a worker, whatever option a later version adds.
    public static func allowedOptions(for kind: JobKind) -> [String: Bool] {
        switch kind {
        case .scan, .dast:
            var options: [String: Bool] = [:]
            for flag in [
                "--sast", "--sca", "--secrets", "--no-default-excludes", "-q", "--quiet", "-v", "--verbose", "--allow-stale-db",
                "--allow-missing-db", "--require-limits",
            ] { options[flag] = false }
            for valued in [
                "--tools", "--fail-on", "--exclude", "--include", "--severity", "--min-confidence", "--max-file-size", "--since",
                "--max-db-age", "--max-file-work",
            ] { options[valued] = true }
            if kind == .dast {
                options["--active"] = false
                for valued in ["--header", "--cookie", "--exclude-url", "--dast-checks", "--max-duration", "--max-requests", "--rate"] {
                    options[valued] = true
                }
            }
            return options
        case .heal:
            return ["--max-minutes": true, "--jobs": true, "--profile": true, "--finding": true]
        case .noop:
            return [:]
        }
    }

    /// Throws unless every option in `arguments` is allowed for `kind`, every other word is an
    /// option's value, a `--profile` is a profile's name (never a file) and no value that git would
    /// read as an option (`--since -x`) is given. Both `submit` and the worker check: the queue is
    /// writable by submitters.
    public static func checkArguments(_ arguments: [String], kind: JobKind) throws {
        let allowed = allowedOptions(for: kind)
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("-"), argument.count > 1 else {
                throw SentinelError(.invalidInput, "'\(argument)': a fleet job's options hold no paths; name the repository once")
            }
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            guard let takesValue = allowed[parts[0]] else {
                throw SentinelError(
                    .invalidInput,
                    "\(parts[0]): not allowed in a fleet \(kind.rawValue) job (the worker sets it, or it names a file or host of the worker's)"
                )
            }
            guard takesValue else { continue }
            let value: String
            if parts.count == 2 {
                value = parts[1]
            } else {
                guard index < arguments.count else { throw SentinelError(.invalidInput, "\(parts[0]): missing its value") }
                value = arguments[index]
                index += 1
            }
            if parts[0] == "--profile",
                value.isEmpty || !value.utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 })
            {
                throw SentinelError(.invalidInput, "--profile: a fleet job names one of the workers' profiles (a-z, 0-9, -), not a file")
            }
            if parts[0] == "--since", value.hasPrefix("-") {
                throw SentinelError(.invalidInput, "--since: '\(value)' is not a revision")
            }
        }
    }

    /// Throws unless `revision` is one git cannot read as an option.
    public static func checkRevision(_ revision: String?) throws {
        guard let revision else { return }
        guard !revision.isEmpty, !revision.hasPrefix("-"), !revision.contains("\0") else {
            throw SentinelError(.invalidInput, "--rev: '\(revision)' is not a revision")
        }
    }

    /// Throws when a repository URL carries credentials (`https://user:token@host/...`): they would
    /// be stored in the queue and shown in every log line; workers bring their own.
    public static func checkRepository(_ repository: String?) throws {
        guard let repository, let scheme = repository.range(of: "://") else { return }
        let authority = repository[scheme.upperBound...].prefix { $0 != "/" }
        guard !authority.contains("@") else {
            throw SentinelError(
                .invalidInput,
                "\(repository.prefix(upTo: scheme.upperBound))…: a repository URL carries no credentials; give the workers theirs")
        }
    }

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
