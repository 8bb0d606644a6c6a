#if canImport(Glibc)
    import Glibc
#endif
import FoundationEssentials
import Support
import Synchronization

/// Writes to the standard streams without going through buffered `print` for stderr,
/// so messages interleave correctly with a sandboxed child writing to the same fds.
public enum Console {
    /// Writes `text` and a newline (unless it ends in one) to stdout, redacted, each line unable
    /// to act as a CI runner's workflow command (`DisplayText.inert`): tables and reports quote
    /// what came from outside (a file's name can start with `::`).
    public static func out(_ text: String) {
        let body = text.hasSuffix("\n") ? String(text.dropLast()) : text
        write(1, body.split(separator: "\n", omittingEmptySubsequences: false).map { DisplayText.inert($0) }.joined(separator: "\n") + "\n")
    }

    /// Writes `text` to stdout as it is (no newline added), redacted, each line made inert like
    /// `out`'s: a text report or summary that ends its own lines.
    public static func text(_ text: String) {
        write(1, text.split(separator: "\n", omittingEmptySubsequences: false).map { DisplayText.inert($0) }.joined(separator: "\n"))
    }

    /// Writes `text` to stderr as ONE line (a trailing newline dropped, then added), redacted,
    /// through `DisplayText.line`: errors and warnings quote what came from outside (a server's
    /// refusal, a file's name, a key of a repository's YAML), which must neither drive the
    /// operator's terminal (issue 54) nor, by a line break of its own, start a line a CI runner
    /// reads as a workflow command (issue 76, H7). A caller with several lines writes each.
    public static func error(_ text: String) {
        let body = text.hasSuffix("\n") ? String(text.dropLast()) : text
        write(2, DisplayText.line(body) + "\n")
    }

    /// Writes `text` to `fd`, redacted; a closed stream is ignored.
    public static func write(_ fd: Int32, _ text: String) {
        // A closed terminal or pipe is not worth failing over: the error is dropped.
        Array(redactor.withLock { $0 }.redact(text).utf8).withUnsafeBytes { _ = writeAll(fd, $0) }
    }

    /// What stdout and stderr never show: built once from the environment's credentials, and
    /// widened by a command that learns of more (the policy's `github.tokenEnv`).
    private static let redactor = Mutex(Redactor.process)

    /// From now on, stdout and stderr also hide what `more` hides.
    public static func redact(_ more: Redactor) {
        redactor.withLock { $0 = Redactor(secrets: $0.secrets + more.secrets, shapes: $0.shapes || more.shapes) }
    }

    private static let noticesShown = Mutex<Set<String>>([])

    /// `sentinel: notice: TEXT` on stderr, once per process (one command) however many
    /// sandboxes report it.
    public static func noticeOnce(_ text: String) {
        guard noticesShown.withLock({ $0.insert(text).inserted }) else { return }
        error("sentinel: notice: \(text)")
    }

    /// Whether stderr is a terminal.
    public static var stderrIsTerminal: Bool { isatty(2) == 1 }
    /// Whether stdout is a terminal.
    public static var stdoutIsTerminal: Bool { isatty(1) == 1 }
}
