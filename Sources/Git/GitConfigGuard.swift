import Foundation

/// The `-c` overrides that keep a repository's own configuration from running anything.
///
/// A repository's `.git/config` (and what it includes) is as hostile as its tree: filters run on
/// every file git reads from the working tree, textconv and external diffs on every diff,
/// fsmonitor on every status, hooks on commits, and the pager, editor, askpass, ssh, credential
/// and gpg programs whenever git wants them. git has no switch to ignore a repository's
/// configuration, so before each run the names of the keys it sets are listed (`git config
/// --name-only`, which only reads) and every key that names a program is overridden empty
/// (git runs no empty command), on top of fixed overrides for the keys git reads without them.
enum GitConfigGuard {
    /// Overrides that apply whatever the repository sets.
    static let fixed: [String: String] = [
        "core.hooksPath": "/dev/null", "core.fsmonitor": "false", "core.pager": "cat", "core.editor": "false",
        "sequence.editor": "false", "core.askPass": "", "core.sshCommand": "false", "diff.external": "",
        "credential.helper": "", "commit.gpgSign": "false", "tag.gpgSign": "false", "gpg.program": "false",
        "core.gitProxy": "", "protocol.allow": "never", "uploadpack.packObjectsHook": "", "core.alternateRefsCommand": "",
    ]

    /// Per-name keys that name a program or make one mandatory: `filter.NAME.clean`, ...
    static let programSuffixes: [String: String] = [
        "clean": "", "smudge": "", "process": "", "required": "false", "textconv": "", "command": "", "driver": "",
    ]
    /// The sections whose per-name keys those suffixes belong to.
    static let programSections: Set<String> = ["filter", "diff", "merge"]

    /// `-c` arguments for a repository whose configuration sets `keys` (as `git config --name-only` prints them).
    static func arguments(forKeys keys: [String]) -> [String] {
        var overrides = fixed
        for key in keys {
            let parts = key.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count >= 3, programSections.contains(parts[0].lowercased()),
                let value = programSuffixes[parts[parts.count - 1].lowercased()]
            else { continue }
            overrides[key] = value
        }
        return overrides.sorted { $0.key < $1.key }.flatMap { ["-c", "\($0.key)=\($0.value)"] }
    }

    /// The NUL-separated key names `git config --list --name-only -z` printed.
    static func keys(fromListing data: Data) -> [String] {
        data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.filter { !$0.isEmpty }
    }
}
