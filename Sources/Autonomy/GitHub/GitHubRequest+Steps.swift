import Foundation
import Git

/// The requests of each publishing step, built from values that are either real (when
/// publishing) or placeholders (when planning), so that the plan is exactly what is sent.
extension GitHubRequest {
    /// Reads a commit, for its tree.
    static func readCommit(_ repository: String, _ sha: String) -> GitHubRequest {
        GitHubRequest(method: "GET", path: "/repos/\(repository)/git/commits/\(sha)")
    }

    /// Reads the repository: tells an unknown repository from an unknown commit.
    static func readRepository(_ repository: String) -> GitHubRequest {
        GitHubRequest(method: "GET", path: "/repos/\(repository)")
    }

    /// Uploads one file's new content as a blob.
    static func createBlob(_ repository: String, content: String) -> GitHubRequest {
        let encoded = Data(content.utf8).base64EncodedString()
        let body = GitHubJSON.text([("content", .string(encoded)), ("encoding", .string("base64"))])
        return GitHubRequest(method: "POST", path: "/repos/\(repository)/git/blobs", body: body)
    }

    /// A tree on top of `baseTree`: each entry points a path at a blob, or removes it (sha nil).
    static func createTree(_ repository: String, baseTree: String, entries: [(path: String, blob: String?)]) -> GitHubRequest {
        let tree = entries.map { entry in
            GitHubJSON.object([
                ("path", .string(entry.path)), ("mode", .string("100644")), ("type", .string("blob")),
                ("sha", entry.blob.map { .string($0) } ?? .null),
            ])
        }
        let body = GitHubJSON.text([("base_tree", .string(baseTree)), ("tree", GitHubJSON.array(tree))])
        return GitHubRequest(method: "POST", path: "/repos/\(repository)/git/trees", body: body)
    }

    /// A commit of `tree` whose only parent is `parent`.
    static func createCommit(_ repository: String, message: String, tree: String, parent: String) -> GitHubRequest {
        let body = GitHubJSON.text([
            ("message", .string(message)), ("tree", .string(tree)), ("parents", GitHubJSON.array([.string(parent)])),
        ])
        return GitHubRequest(method: "POST", path: "/repos/\(repository)/git/commits", body: body)
    }

    /// A new branch at `commit`; GitHub refuses it (422) when the branch exists.
    static func createBranch(_ repository: String, branch: String, commit: String) -> GitHubRequest {
        let body = GitHubJSON.text([("ref", .string("refs/heads/\(branch)")), ("sha", .string(commit))])
        return GitHubRequest(method: "POST", path: "/repos/\(repository)/git/refs", body: body)
    }

    /// Reads a branch: where it points after an answer that left its creation in doubt.
    static func readBranch(_ repository: String, branch: String) -> GitHubRequest {
        GitHubRequest(method: "GET", path: "/repos/\(repository)/git/ref/heads/\(escapedPath(branch))")
    }

    /// Deletes a branch (the rollback when the pull request cannot be opened).
    static func deleteBranch(_ repository: String, branch: String) -> GitHubRequest {
        GitHubRequest(method: "DELETE", path: "/repos/\(repository)/git/refs/heads/\(escapedPath(branch))")
    }

    /// Opens the pull request from the draft's branch into its base.
    static func openPullRequest(_ draft: PullRequestDraft) -> GitHubRequest {
        let body = GitHubJSON.text([
            ("title", .string(draft.title)), ("head", .string(draft.branch)), ("base", .string(draft.base)),
            ("body", .string(draft.body)),
        ])
        return GitHubRequest(method: "POST", path: "/repos/\(draft.repository)/pulls", body: body)
    }

    /// Adds labels to pull request (issue) `number`.
    static func addLabels(_ repository: String, number: String, labels: [String]) -> GitHubRequest {
        let body = GitHubJSON.text([("labels", GitHubJSON.array(labels.map { .string($0) }))])
        return GitHubRequest(method: "POST", path: "/repos/\(repository)/issues/\(number)/labels", body: body)
    }

    /// A branch name as path segments: `/` kept, anything but unreserved characters
    /// percent-encoded (a valid name may still hold `#`, `%` or `+`).
    static func escapedPath(_ name: String) -> String {
        var escaped = ""
        for byte in name.utf8 {
            if unreserved.contains(byte) {
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                escaped += String(format: "%%%02X", byte)
            }
        }
        return escaped
    }

    /// Letters, digits, `-._~` and the `/` between path segments.
    private static let unreserved = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/".utf8)
}
