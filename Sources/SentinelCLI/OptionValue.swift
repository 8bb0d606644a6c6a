import Foundation
import Git
import Support

/// Libraries name the object of an error (`PATH: no such directory`), never a flag; the CLI adds
/// the option the value came from, so the user sees `--output PATH: ...` or `--since: ...`.
enum OptionValue {
    /// Runs `body`, prefixing its `SentinelError`s with `option`: `--since REV: problem` when the
    /// message starts with `value`, `--since: problem` when it does not. With no `value`, every
    /// message of `body` starts with its object (`--output PATH: problem`).
    static func naming<T>(_ option: String, value: String? = nil, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch var error as SentinelError {
            let startsWithObject = value.map { error.message.hasPrefix($0 + ":") } ?? true
            error.message = option + (startsWithObject ? " " : ": ") + error.message
            throw error
        }
    }

    /// `--author 'Name <email>'` of `heal` and `proposals approve`, else the `GIT_AUTHOR_*`
    /// variables; a malformed value is a usage error naming the option, before anything runs.
    static func author(_ text: String?) throws -> GitIdentity? {
        try naming("--author", value: text ?? "") {
            try text.map(GitIdentity.init(parsing:)) ?? GitIdentity.fromEnvironment(ProcessInfo.processInfo.environment)
        }
    }
}
