import Foundation
import Store
import Support
import Synchronization

/// Where a proposal is in its life: queued, being applied, applied on a branch, denied by a
/// person, or stale (its patch no longer applies to the base).
public enum ProposalStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Waiting for a person.
    case pending
    /// An approval or the actor is creating its branch (a crash here is recovered on the next run).
    case applying
    /// Committed on its branch.
    case applied
    /// Refused by a person.
    case denied
    /// The patch no longer applies.
    case stale
}

/// One row of the approval queue.
public struct QueuedProposal: Sendable, Hashable, Codable {
    /// Short hex id (`sentinel proposals approve ID` takes any unique prefix).
    public var id: String
    /// The repository's top-level directory.
    public var repository: String
    /// Its state.
    public var status: ProposalStatus
    /// When it was queued (ISO 8601).
    public var created: String
    /// When it was decided, if it was.
    public var decided: String?
    /// Why it was denied or went stale; who approved it.
    public var reason: String?
    /// The branch it is (or would be) committed on.
    public var branch: String
    /// The pull request title.
    public var title: String
    /// Its action class.
    public var action: ActionClass
    /// The fingerprint of the signal it fixes.
    public var fingerprint: String
    /// The directory holding `patch.diff`, `PR.md` and `proposal.json`.
    public var directory: String
    /// The commit, once applied.
    public var commit: String?
    /// The pull request, once opened.
    public var pullRequest: String?
    /// The digest of its files when it was proposed (`ProposalDigest`), kept here, outside its
    /// directory; nil for a row an older Sentinel wrote, which cannot be approved.
    public var digest: String?

    /// A row; see the properties.
    public init(
        id: String, repository: String, status: ProposalStatus, created: String, decided: String?, reason: String?,
        branch: String, title: String, action: ActionClass, fingerprint: String, directory: String, commit: String?,
        pullRequest: String?, digest: String? = nil
    ) {
        self.id = id
        self.repository = repository
        self.status = status
        self.created = created
        self.decided = decided
        self.reason = reason
        self.branch = branch
        self.title = title
        self.action = action
        self.fingerprint = fingerprint
        self.directory = directory
        self.commit = commit
        self.pullRequest = pullRequest
        self.digest = digest
    }
}

/// The approval queue and the rate-limit counters, in the state directory's `autonomy.sqlite`. Every
/// change of state is one `BEGIN IMMEDIATE` transaction with a guard on the current state, so
/// two `sentinel` processes never both approve the same proposal or both take the last slot of
/// a rate limit.
public final class AutonomyStore: Sendable {
    /// The database file.
    public let path: String
    /// The connection, one caller at a time.
    private let database: Mutex<Database>

    static let schema = Schema(
        store: "autonomy", title: "approval queue",
        migrations: [
            Migration(
                version: 1,
                sql: """
                    CREATE TABLE IF NOT EXISTS proposals(
                        id TEXT PRIMARY KEY,
                        repository TEXT NOT NULL,
                        status TEXT NOT NULL,
                        created TEXT NOT NULL,
                        decided TEXT,
                        reason TEXT,
                        branch TEXT NOT NULL,
                        title TEXT NOT NULL,
                        action TEXT NOT NULL,
                        fingerprint TEXT NOT NULL,
                        directory TEXT NOT NULL,
                        commit_sha TEXT,
                        pull_request TEXT
                    );
                    CREATE INDEX IF NOT EXISTS proposals_status ON proposals(status);
                    CREATE TABLE IF NOT EXISTS applications(
                        id INTEGER PRIMARY KEY,
                        repository TEXT NOT NULL,
                        action TEXT NOT NULL,
                        at REAL NOT NULL,
                        proposal TEXT NOT NULL
                    );
                    CREATE INDEX IF NOT EXISTS applications_window ON applications(repository, at);
                    """),
            Migration(version: 2, sql: "ALTER TABLE proposals ADD COLUMN digest TEXT"),
        ], remedy: "use the Sentinel that wrote it, or move the file aside")

    /// Opens (creating) the store at `path`; a damaged file is `SentinelError(.invalidInput)`.
    public init(path: String) throws {
        self.path = path
        do {
            let database = try Database(path: path)
            try database.migrate(Self.schema)
            self.database = Mutex(database)
        } catch let error as SentinelError where error.code == .invalidInput {
            throw error
        } catch let error as SentinelError {
            throw SentinelError(.invalidInput, "\(path): the approval queue is damaged or not a database (\(error.message))")
        }
    }

    /// The store in the state directory.
    public convenience init(state: StateDirectory) throws {
        try self.init(path: state.file("autonomy.sqlite"))
    }

    /// Queues `proposal` unless one with its id exists; returns the row now stored (the existing
    /// one when it was already queued).
    @discardableResult
    public func enqueue(_ proposal: QueuedProposal) throws -> QueuedProposal {
        try database.withLock { database in
            try database.transaction {
                if let existing = try Self.fetch(id: proposal.id, in: database) { return existing }
                let insert = try database.prepare(
                    """
                    INSERT INTO proposals(id, repository, status, created, decided, reason, branch, title, action,
                        fingerprint, directory, commit_sha, pull_request, digest) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)
                    """)
                bind(insert, proposal)
                try insert.run()
                return proposal
            }
        }
    }

    /// Every proposal, newest first; only those in `statuses` when given.
    public func list(statuses: Set<ProposalStatus>? = nil) throws -> [QueuedProposal] {
        try database.withLock { database in
            let select = try database.prepare("SELECT \(Self.columns) FROM proposals ORDER BY created DESC, id")
            var rows: [QueuedProposal] = []
            while try select.step() {
                let row = Self.row(select)
                if statuses?.contains(row.status) ?? true { rows.append(row) }
            }
            return rows
        }
    }

    /// The proposal whose id is or starts with `prefix` (at least 4 characters). Unknown or
    /// ambiguous is `SentinelError(.invalidInput)`.
    public func find(_ prefix: String) throws -> QueuedProposal {
        let wanted = prefix.lowercased()
        guard wanted.count >= 4, wanted.allSatisfy(\.isHexDigit) else {
            throw SentinelError(.invalidInput, "\(prefix): not a proposal id (hex, at least 4 characters)")
        }
        let matches = try list().filter { $0.id.hasPrefix(wanted) }
        guard let first = matches.first else { throw SentinelError(.invalidInput, "\(prefix): no such proposal") }
        guard matches.count == 1 else {
            throw SentinelError(
                .invalidInput, "\(prefix): ambiguous, matches \(matches.map(\.id).joined(separator: ", "))")
        }
        return first
    }

    /// Moves `id` from `from` to `to` (recording `reason`, `commit` and `pullRequest` when given)
    /// and returns true; false when it is no longer in `from` (another process got there first).
    @discardableResult
    public func transition(
        _ id: String, from: ProposalStatus, to: ProposalStatus, reason: String? = nil, commit: String? = nil,
        pullRequest: String? = nil, at date: Date = Date()
    ) throws -> Bool {
        try database.withLock { database in
            try database.transaction {
                let update = try database.prepare(
                    """
                    UPDATE proposals SET status = ?, decided = ?, reason = COALESCE(?, reason),
                        commit_sha = COALESCE(?, commit_sha), pull_request = COALESCE(?, pull_request)
                    WHERE id = ? AND status = ?
                    """)
                update.bind(1, to.rawValue)
                update.bind(2, to == .pending || to == .applying ? nil : Self.timestamp(date))
                update.bind(3, reason)
                update.bind(4, commit)
                update.bind(5, pullRequest)
                update.bind(6, id)
                update.bind(7, from.rawValue)
                try update.run()
                return database.changes == 1
            }
        }
    }

    /// Takes one slot of the daily limits for an automatic application in `repository` of
    /// `action`: true and recorded when both the repository's and the class's count over the last
    /// 24 hours are under their limits; false (nothing recorded) when either is reached.
    public func reserveApplication(
        repository: String, action: ActionClass, proposal: String, repositoryLimit: Int, classLimit: Int?,
        at date: Date = Date()
    ) throws -> RateLimitCheck {
        try database.withLock { database in
            try database.transaction {
                let since = date.timeIntervalSince1970 - 86_400
                let count = try database.prepare(
                    "SELECT COUNT(*), COALESCE(SUM(action = ?), 0) FROM applications WHERE repository = ? AND at > ?")
                count.bind(1, action.rawValue)
                count.bind(2, repository)
                count.bind(3, since)
                _ = try count.step()
                let check = RateLimitCheck(
                    repositoryCount: Int(count.int(0)), repositoryLimit: repositoryLimit, classCount: Int(count.int(1)),
                    classLimit: classLimit)
                guard check.allowed else { return check }
                let insert = try database.prepare(
                    "INSERT INTO applications(repository, action, at, proposal) VALUES(?,?,?,?)")
                insert.bind(1, repository)
                insert.bind(2, action.rawValue)
                insert.bind(3, date.timeIntervalSince1970)
                insert.bind(4, proposal)
                try insert.run()
                return check
            }
        }
    }

    /// Gives back the slot `reserveApplication` took for `proposal` (the application failed).
    public func releaseApplication(proposal: String) throws {
        try database.withLock { database in
            let delete = try database.prepare("DELETE FROM applications WHERE proposal = ?")
            delete.bind(1, proposal)
            try delete.run()
        }
    }

    static func timestamp(_ date: Date) -> String {
        UTCTimestamp.string(date, milliseconds: false)
    }

    /// The row of `id`; the caller holds the connection.
    private static func fetch(id: String, in database: Database) throws -> QueuedProposal? {
        let select = try database.prepare("SELECT \(Self.columns) FROM proposals WHERE id = ?")
        select.bind(1, id)
        return try select.step() ? Self.row(select) : nil
    }

    private static let columns =
        "id, repository, status, created, decided, reason, branch, title, action, fingerprint, directory, commit_sha, pull_request, digest"

    private static func row(_ s: Statement) -> QueuedProposal {
        QueuedProposal(
            id: s.text(0) ?? "", repository: s.text(1) ?? "", status: ProposalStatus(rawValue: s.text(2) ?? "") ?? .stale,
            created: s.text(3) ?? "", decided: s.text(4), reason: s.text(5), branch: s.text(6) ?? "",
            title: s.text(7) ?? "", action: ActionClass(rawValue: s.text(8) ?? "") ?? .llmPatch,
            fingerprint: s.text(9) ?? "", directory: s.text(10) ?? "", commit: s.text(11), pullRequest: s.text(12),
            digest: s.text(13))
    }

    private func bind(_ statement: Statement, _ p: QueuedProposal) {
        let values: [String?] = [
            p.id, p.repository, p.status.rawValue, p.created, p.decided, p.reason, p.branch, p.title, p.action.rawValue,
            p.fingerprint, p.directory, p.commit, p.pullRequest, p.digest,
        ]
        for (index, value) in values.enumerated() { statement.bind(Int32(index + 1), value) }
    }
}

/// The outcome of a rate-limit check: the counts over the last 24 hours and the limits.
public struct RateLimitCheck: Sendable, Hashable, Codable {
    /// Automatic applications in the repository.
    public var repositoryCount: Int
    /// The repository's daily limit.
    public var repositoryLimit: Int
    /// Automatic applications of the same action class in the repository.
    public var classCount: Int
    /// The class's daily limit, if the policy sets one.
    public var classLimit: Int?

    /// True when both counts are under their limits.
    public var allowed: Bool { repositoryCount < repositoryLimit && classCount < (classLimit ?? Int.max) }

    /// Which limit was reached, for the audit log and the notification.
    public var explanation: String {
        if repositoryCount >= repositoryLimit {
            return "rate limit: \(repositoryCount) automatic changes in this repository in 24 h (limit \(repositoryLimit))"
        }
        if let classLimit, classCount >= classLimit {
            return "rate limit: \(classCount) automatic changes of this class in 24 h (limit \(classLimit))"
        }
        return "within the rate limits (\(repositoryCount)/\(repositoryLimit) today)"
    }
}
