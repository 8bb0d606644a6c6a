import Foundation
import Support

/// What heal memory files an attempt under, so that a fix is replayed only on the repository it
/// was learnt on: a remote repository's URL, normalised, or a local one's real path as a
/// `file://` URL. A fleet worker names the job's repository (``of(_:)``); a `heal` run by hand
/// names its `--repo` directory (``local(_:)``) unless `--repository-id` says otherwise.
public enum RepositoryIdentity {
    /// The identity of `repository` as a fleet job names it: a URL (`https://…`, `ssh://…`,
    /// `git@host:path`) by ``remote(_:)``; a path or `file://` URL by ``local(_:)``.
    public static func of(_ repository: String) -> String {
        if repository.hasPrefix("file://") { return local(String(repository.dropFirst("file://".count))) }
        if repository.contains("://") || repository.hasPrefix("git@") { return remote(repository) }
        return local(repository)
    }

    /// `url` with its scheme and host lowercased, the scheme's default port dropped, and trailing
    /// slashes and one `.git` removed: `https://GitHub.com:443/org/app.git/` is
    /// `https://github.com/org/app`. The path keeps its case (most servers tell cases apart).
    public static func remote(_ url: String) -> String {
        var path = Substring(url)
        var origin = ""
        if let separator = url.range(of: "://") {
            let scheme = url[..<separator.lowerBound].lowercased()
            let rest = url[separator.upperBound...]
            let authority = rest.prefix { $0 != "/" }.lowercased()
            let defaultPort = ["https": ":443", "http": ":80", "ssh": ":22", "git": ":9418"][scheme]
            let host = defaultPort.map { authority.hasSuffix($0) ? String(authority.dropLast($0.count)) : authority } ?? authority
            origin = scheme + "://" + host
            path = rest.drop { $0 != "/" }
        }
        while path.hasSuffix("/") { path = path.dropLast() }
        if path.hasSuffix(".git") { path = path.dropLast(4) }
        while path.hasSuffix("/") { path = path.dropLast() }
        return origin + path
    }

    /// `file://` and the real path of the directory `path` (links resolved), or of `path` made
    /// absolute when it cannot be resolved.
    public static func local(_ path: String) -> String {
        let real = OutputPlacement.realPath(path) ?? URL(fileURLWithPath: path).standardizedFileURL.path
        return "file://" + real
    }
}
