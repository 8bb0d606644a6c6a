/// Code shown to the model: a file's lines starting at `firstLine`.
public struct LLMExcerpt: Sendable, Hashable, Codable {
    /// Repository-relative path, as the edits must name it.
    public var path: String
    /// The 1-based line number of the first line of `text`.
    public var firstLine: Int
    /// The lines, as they are in the file.
    public var text: String

    /// An excerpt of `path` from line `firstLine`.
    public init(path: String, firstLine: Int = 1, text: String) {
        self.path = path
        self.firstLine = firstLine
        self.text = text
    }

    /// The line numbers it covers.
    public var lines: ClosedRange<Int> {
        firstLine...(firstLine + max(0, TextLines.split(text).count - 1))
    }
}

/// An earlier attempt at the same signal and what it taught: shown so the model does not
/// repeat it.
public struct LLMAttempt: Sendable, Hashable, Codable {
    /// What was tried: a one-line summary or the patch itself (shortened when long).
    public var change: String
    /// Why it failed, as the reflector put it.
    public var lesson: String

    /// An attempt that tried `change` and taught `lesson`.
    public init(change: String = "", lesson: String) {
        self.change = change
        self.lesson = lesson
    }
}

/// The form the prompt asks the model to answer in (the parser accepts either).
public enum LLMEditFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// `path` then `<<<<<<< SEARCH` / `=======` / `>>>>>>> REPLACE` blocks: models copy
    /// lines more reliably than they count hunk lines.
    case searchReplace = "search-replace"
    /// A unified diff in a ```diff fence.
    case unifiedDiff = "unified-diff"
}
