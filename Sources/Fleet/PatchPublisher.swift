import Autonomy
import Foundation
import Git
import HTTP
import Store
import Support

/// Where an approved fleet patch is published as a pull request: the repository on GitHub (or a
/// compatible API) and the token, as the operator configured the worker (never the job or the
/// repository under heal, which are a submitter's).
public struct FleetPublisher: Sendable {
    /// `owner/name` on GitHub.
    public var repository: String
    /// The API and the token.
    public var config: GitHubConfig
    /// The base branch pull requests target.
    public var base: String
    /// Labels put on each pull request.
    public var labels: [String]

    /// A publisher; see the properties.
    public init(repository: String, config: GitHubConfig, base: String = "main", labels: [String] = []) {
        self.repository = repository
        self.config = config
        self.base = base
        self.labels = labels
    }
}

/// What `proposals approve` does, for a fleet heal job whose patch was approved: the worker that
/// holds the checkout commits the approved patch on a new branch (git in the sandbox, as every git
/// run, never as root on the repository) and, with a publisher configured, opens the pull request
/// through `GitHubPublisher`. A local repository lent read-only is not written: the commit is made
/// in a clone of it in the job's scratch directory.
struct ApprovedPatch {
    let job: Job
    let digest: String
    let patch: String
    let description: String?
    let approver: String?
    let publisher: FleetPublisher?
    /// How requests are sent (tests send to a loopback server the same way).
    var send: @Sendable (HTTPRequest) throws -> (HTTPResponse, [UInt8]) = HTTPClient.send

    /// The branch an approved patch is committed on: the job and the digest's first 12 digits.
    var branch: String { "sentinel/fleet-\(job.id)-\(digest.prefix(12))" }

    /// Commits and publishes; a failure is recorded in the publication (the decision stands, and the
    /// job's result says what was not done), never thrown.
    func run(checkout: String, isClone: Bool, cloneSource: String?, scratch: String) -> PatchPublication {
        var published = PatchPublication()
        do {
            var tree = checkout
            if !isClone {
                guard let cloneSource else { throw SentinelError(.invalidInput, "job \(job.id): no repository to commit the patch in") }
                try GitClone.make(from: cloneSource, into: scratch, name: "publish", revision: nil)
                tree = scratch + "/publish"
            }
            let repository = try GitRepository(containing: tree)
            guard let parent = try repository.commit("HEAD") else {
                throw SentinelError(.git, "job \(job.id): the checkout has no commit to apply the patch onto")
            }
            let commit = try repository.commit(patch: patch, onto: parent, message: message, author: nil)
            try repository.createBranch(branch, at: commit)
            published.branch = branch
            published.commit = commit
            if let publisher {
                let draft = PullRequestDraft(
                    repository: publisher.repository, base: publisher.base, baseCommit: parent, branch: branch, title: title,
                    body: body, commitMessage: message, changes: try repository.changes(of: commit), labels: publisher.labels)
                published.pullRequest = try GitHubPublisher.publish(draft, config: publisher.config, send: send).url
            }
        } catch {
            published.error = Redactor.process.redact((error as? SentinelError)?.message ?? "\(error)")
        }
        return published
    }

    /// The pull request's title: the heal's description, one line, bounded.
    var title: String {
        let line = (description ?? "").split(separator: "\n").first.map(String.init) ?? ""
        return "Sentinel fleet job \(job.id): " + String((line.isEmpty ? "verified fix" : line).prefix(180))
    }

    /// The commit message: the title, the digest approved and who approved it.
    var message: String {
        "\(title)\n\nPatch sha256 \(digest), approved by \(approver ?? "unknown") (sentinel fleet job \(job.id))."
    }

    /// The pull request's description.
    var body: String {
        Self.body(
            job: job.id, approver: approver, digest: digest, repository: job.request.repository, description: description)
    }

    /// The pull request's description. The heal's description came from the job's own output
    /// (a subverted heal, a model's words) and the repository from its submitter: both inert
    /// text (`MarkdownText`), no mention, link, image or HTML of theirs on the page.
    static func body(job: Int64, approver: String?, digest: String, repository: String, description: String?) -> String {
        """
        A fix verified by Sentinel's fleet (job \(job)) and approved by \(MarkdownText.word(approver ?? "unknown")).

        - patch: sha256 `\(digest)`
        - repository: \(MarkdownText.code(repository))

        \(description.map(MarkdownText.block) ?? "")
        """
    }
}
