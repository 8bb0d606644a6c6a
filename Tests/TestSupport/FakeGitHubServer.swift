import Foundation
import Synchronization

/// A fake GitHub REST API on 127.0.0.1 holding one repository in memory: the commits it knows,
/// its branches, and every blob, tree, commit, pull request and label created through it. It
/// checks the Bearer token and refuses what GitHub would (an existing branch, an unknown sha), so
/// that tests assert what a publisher really did, not only what it sent. Knobs make it fail.
public final class FakeGitHubServer: Sendable {
    /// One entry of a created tree.
    public struct TreeEntry: Sendable, Hashable {
        /// The path in the repository.
        public var path: String
        /// The file mode, e.g. `100644`.
        public var mode: String
        /// `blob` (or `tree`).
        public var type: String
        /// The blob; nil removes the path from the base tree.
        public var sha: String?
    }

    /// A tree created through the API.
    public struct Tree: Sendable, Hashable {
        /// The tree it is built on, when one was named.
        public var baseTree: String?
        /// Its entries, in the order sent.
        public var entries: [TreeEntry]
    }

    /// A commit created through the API.
    public struct Commit: Sendable, Hashable {
        /// The commit message.
        public var message: String
        /// The tree's sha.
        public var tree: String
        /// The parents' shas.
        public var parents: [String]
    }

    /// A pull request opened through the API.
    public struct PullRequest: Sendable, Hashable {
        /// Its number, from 1.
        public var number: Int
        /// The title sent.
        public var title: String
        /// The head branch.
        public var head: String
        /// The base branch.
        public var base: String
        /// The description sent.
        public var body: String
        /// Its web address.
        public var htmlURL: String
    }

    /// The `x-ratelimit-reset` sent when rate-limited: 2023-11-14T22:13:20Z.
    public static let rateLimitReset = 1_700_000_000

    /// `owner/name` of the repository served; other repositories are 404.
    public let repository: String
    /// The loopback server underneath (its recorded requests, its URL).
    public let server: LoopbackHTTPServer
    private let state: Store

    /// Serves `repository` to requests bearing `token`. `commits` maps each commit GitHub
    /// knows to its tree; `branches` maps branch names to commits.
    public init(repository: String = "octo/demo", token: String, commits: [String: String], branches: [String: String]) throws {
        let state = Store(State(token: token, knownCommits: commits, refs: branches))
        self.repository = repository
        self.state = state
        server = try LoopbackHTTPServer { request in
            state.mutex.withLock { FakeGitHubServer.answer(request, repository: repository, state: &$0) }
        }
    }

    deinit { server.stop() }

    /// The API URL to configure a client with.
    public var apiURL: String { server.baseURL }
    /// Every request received, in order.
    public var requests: [LoopbackHTTPServer.Request] { server.requests }
    /// Branch name → commit, as they stand now.
    public var refs: [String: String] { state.mutex.withLock { $0.refs } }
    /// Blob sha → the blob's content decoded from Base64 as UTF-8 text.
    public var blobs: [String: String] { state.mutex.withLock { $0.blobs } }
    /// Tree sha → tree, for the trees created.
    public var trees: [String: Tree] { state.mutex.withLock { $0.trees } }
    /// Commit sha → commit, for the commits created.
    public var commits: [String: Commit] { state.mutex.withLock { $0.commits } }
    /// The pull requests opened, in order.
    public var pulls: [PullRequest] { state.mutex.withLock { $0.pulls } }
    /// Pull request number → the labels added to it.
    public var labels: [Int: [String]] { state.mutex.withLock { $0.labels } }

    /// The branches that exist. Setting it adds each missing one, pointing at the first known
    /// commit (in sha order), so that creating it again is refused with 422.
    public var existingBranches: Set<String> {
        get { Set(refs.keys) }
        set {
            state.mutex.withLock { state in
                let commit = state.knownCommits.keys.sorted().first ?? String(repeating: "0", count: 40)
                for name in newValue where state.refs[name] == nil { state.refs[name] = commit }
            }
        }
    }

    /// Answers every request with 403, `x-ratelimit-remaining: 0` and `x-ratelimit-reset`.
    public var rateLimited: Bool {
        get { state.mutex.withLock { $0.rateLimited } }
        set { state.mutex.withLock { $0.rateLimited = newValue } }
    }

    /// The status to answer `POST .../pulls` with instead of opening the pull request.
    public var failPulls: Int? {
        get { state.mutex.withLock { $0.failPulls } }
        set { state.mutex.withLock { $0.failPulls = newValue } }
    }

    /// The status to answer `POST .../issues/N/labels` with instead of adding the labels.
    public var failLabels: Int? {
        get { state.mutex.withLock { $0.failLabels } }
        set { state.mutex.withLock { $0.failLabels = newValue } }
    }

    /// The status to answer `DELETE .../git/refs/...` with instead of deleting the branch.
    public var failDeleteRef: Int? {
        get { state.mutex.withLock { $0.failDeleteRef } }
        set { state.mutex.withLock { $0.failDeleteRef = newValue } }
    }

    /// The status to answer `POST .../git/refs` with after creating the branch anyway (an
    /// answer lost after the work was done).
    public var failCreateRefAfterCreating: Int? {
        get { state.mutex.withLock { $0.failCreateRefAfterCreating } }
        set { state.mutex.withLock { $0.failCreateRefAfterCreating = newValue } }
    }

    /// The JSON body of the recorded request `index`, as Foundation reads it.
    public func requestJSON(_ index: Int) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(requests[index].body))
    }

    /// The repository and the knobs, behind one lock the handler shares.
    struct State {
        var token: String
        var knownCommits: [String: String]
        var refs: [String: String]
        var blobs: [String: String] = [:]
        var trees: [String: Tree] = [:]
        var commits: [String: Commit] = [:]
        var pulls: [PullRequest] = []
        var labels: [Int: [String]] = [:]
        var rateLimited = false
        var failPulls: Int?
        var failLabels: Int?
        var failDeleteRef: Int?
        var failCreateRefAfterCreating: Int?
        var created = 0

        /// A new 40-hex sha, distinct from every other one made here.
        mutating func nextSHA(_ kind: Int) -> String {
            created += 1
            return String(format: "%02x%038x", kind, created)
        }

        /// The tree of a known or created commit.
        func tree(ofCommit sha: String) -> String? { knownCommits[sha] ?? commits[sha]?.tree }

        /// Whether `sha` names a tree: a known commit's or a created one.
        func isTree(_ sha: String) -> Bool { trees[sha] != nil || knownCommits.values.contains(sha) }
    }

    /// A class so that the handler closure and the server share one state.
    final class Store: Sendable {
        let mutex: Mutex<State>
        init(_ state: State) { mutex = Mutex(state) }
    }
}

extension FakeGitHubServer {
    typealias Response = LoopbackHTTPServer.Response

    /// Authentication first, then the rate limit, then the route, as GitHub does.
    static func answer(_ request: LoopbackHTTPServer.Request, repository: String, state: inout State) -> Response {
        guard request.headers["authorization"] == "Bearer \(state.token)" else {
            return json(401, ["message": "Bad credentials", "documentation_url": "https://docs.github.com/rest"])
        }
        if state.rateLimited {
            return json(
                403, ["message": "API rate limit exceeded for user ID 1."],
                headers: [("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", String(rateLimitReset))])
        }
        let target = request.path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        let parts = target.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
        guard parts.count >= 3, parts[0] == "repos", "\(parts[1])/\(parts[2])" == repository else { return notFound }
        let route = Array(parts.dropFirst(3))
        let body = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any] ?? [:]
        switch (request.method, route.first, route.dropFirst().first) {
        case ("GET", nil, _): return json(200, ["full_name": repository])
        case ("GET", "git", "commits") where route.count == 3: return readCommit(route[2], state: state)
        case ("POST", "git", "blobs") where route.count == 2: return createBlob(body, state: &state)
        case ("POST", "git", "trees") where route.count == 2: return createTree(body, state: &state)
        case ("POST", "git", "commits") where route.count == 2: return createCommit(body, state: &state)
        case ("POST", "git", "refs") where route.count == 2: return createRef(body, state: &state)
        case ("GET", "git", "ref") where route.count > 3 && route[2] == "heads":
            return readRef(route.dropFirst(3).joined(separator: "/"), state: state)
        case ("DELETE", "git", "refs") where route.count > 3 && route[2] == "heads":
            return deleteRef(route.dropFirst(3).joined(separator: "/"), state: &state)
        case ("POST", "pulls", nil): return createPull(body, repository: repository, state: &state)
        case ("POST", "issues", let number?) where route.count == 3 && route[2] == "labels":
            return addLabels(body, number: Int(number) ?? 0, state: &state)
        default: return notFound
        }
    }

    static func readCommit(_ sha: String, state: State) -> Response {
        guard let tree = state.tree(ofCommit: sha) else { return notFound }
        return json(200, ["sha": sha, "tree": ["sha": tree]])
    }

    static func createBlob(_ body: [String: Any], state: inout State) -> Response {
        guard body["encoding"] as? String == "base64", let content = body["content"] as? String,
            let data = Data(base64Encoded: content)
        else { return invalid("content is not valid Base64") }
        let sha = state.nextSHA(0x0b)
        state.blobs[sha] = String(decoding: data, as: UTF8.self)
        return json(201, ["sha": sha])
    }

    static func createTree(_ body: [String: Any], state: inout State) -> Response {
        let base = body["base_tree"] as? String
        if let base, !state.isTree(base) { return invalid("base_tree \(base) is not a valid tree") }
        guard let items = body["tree"] as? [[String: Any]] else { return invalid("tree is not an array") }
        var entries: [TreeEntry] = []
        for item in items {
            guard let path = item["path"] as? String, let mode = item["mode"] as? String, let type = item["type"] as? String,
                let sha = item["sha"], sha is NSNull || sha is String
            else { return invalid("tree entry is missing path, mode, type or sha") }
            let blob = sha as? String
            if let blob, state.blobs[blob] == nil { return invalid("tree.sha \(blob) is not a valid blob") }
            entries.append(TreeEntry(path: path, mode: mode, type: type, sha: blob))
        }
        let sha = state.nextSHA(0x7e)
        state.trees[sha] = Tree(baseTree: base, entries: entries)
        return json(201, ["sha": sha])
    }

    static func createCommit(_ body: [String: Any], state: inout State) -> Response {
        guard let message = body["message"] as? String, let tree = body["tree"] as? String, state.isTree(tree),
            let parents = body["parents"] as? [String], parents.allSatisfy({ state.tree(ofCommit: $0) != nil })
        else { return invalid("commit needs a message, a known tree and known parents") }
        let sha = state.nextSHA(0xc0)
        state.commits[sha] = Commit(message: message, tree: tree, parents: parents)
        return json(201, ["sha": sha, "tree": ["sha": tree]])
    }

    static func createRef(_ body: [String: Any], state: inout State) -> Response {
        guard let ref = body["ref"] as? String, ref.hasPrefix("refs/heads/"), let sha = body["sha"] as? String else {
            return invalid("ref and sha are required")
        }
        let branch = String(ref.dropFirst("refs/heads/".count))
        guard state.refs[branch] == nil else { return json(422, ["message": "Reference already exists"]) }
        guard state.tree(ofCommit: sha) != nil else { return json(422, ["message": "Object does not exist"]) }
        state.refs[branch] = sha
        if let status = state.failCreateRefAfterCreating { return json(status, ["message": "Server Error"]) }
        return json(201, ["ref": ref, "object": ["sha": sha, "type": "commit"]])
    }

    static func readRef(_ branch: String, state: State) -> Response {
        guard let sha = state.refs[branch] else { return notFound }
        return json(200, ["ref": "refs/heads/\(branch)", "object": ["sha": sha, "type": "commit"]])
    }

    static func deleteRef(_ branch: String, state: inout State) -> Response {
        if let status = state.failDeleteRef { return json(status, ["message": "Server Error"]) }
        guard state.refs.removeValue(forKey: branch) != nil else { return json(422, ["message": "Reference does not exist"]) }
        return Response(status: 204)
    }

    static func createPull(_ body: [String: Any], repository: String, state: inout State) -> Response {
        if let status = state.failPulls {
            let reason = status == 422 ? "A pull request already exists for this branch." : "try again"
            return json(status, ["message": status == 422 ? "Validation Failed" : "Server Error", "errors": [["message": reason]]])
        }
        guard let title = body["title"] as? String, let head = body["head"] as? String, let base = body["base"] as? String,
            state.refs[head] != nil, state.refs[base] != nil
        else { return json(422, ["message": "Validation Failed", "errors": [["field": "head", "code": "invalid"]]]) }
        let number = state.pulls.count + 1
        let url = "https://github.example/\(repository)/pull/\(number)"
        let body = body["body"] as? String ?? ""
        state.pulls.append(PullRequest(number: number, title: title, head: head, base: base, body: body, htmlURL: url))
        return json(201, ["number": number, "html_url": url, "head": ["ref": head], "base": ["ref": base]])
    }

    static func addLabels(_ body: [String: Any], number: Int, state: inout State) -> Response {
        if let status = state.failLabels { return json(status, ["message": "Server Error"]) }
        guard state.pulls.contains(where: { $0.number == number }) else { return notFound }
        guard let names = body["labels"] as? [String] else { return invalid("labels is not an array of strings") }
        state.labels[number, default: []] += names
        return json(200, (state.labels[number] ?? []).map { ["name": $0] })
    }

    static var notFound: Response { json(404, ["message": "Not Found"]) }

    static func invalid(_ reason: String) -> Response {
        json(422, ["message": "Validation Failed", "errors": [["message": reason]]])
    }

    static func json(_ status: Int, _ object: Any, headers: [(String, String)] = []) -> Response {
        let body = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return Response(status: status, headers: [("Content-Type", "application/json")] + headers, body: Array(body))
    }
}
