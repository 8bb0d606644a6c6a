import Synchronization

/// The trees a project's import pre-scan read, kept for the scan of the same text (issue 77: one
/// parse per file per scan): a file whose imports are read from its tree
/// (``ModuleConventions/importsReadFromTree``) is read once, in the pre-scan, and the scan takes
/// the tree from here. Bounded by the size of the sources kept; a file past the budget is read again.
final class LoweredTrees: Sendable {
    /// Sources kept, in UTF-8 bytes, before a file is read again instead (the trees cost a small
    /// multiple of their source).
    static let defaultBudget = 64 << 20

    private struct Kept: Sendable {
        var text: String
        var parsed: ParsedSource
    }

    private struct State: Sendable {
        var trees: [String: Kept] = [:]
        var remaining: Int
    }

    private let state: Mutex<State>

    /// An empty store keeping up to `budget` bytes of source.
    init(budget: Int = LoweredTrees.defaultBudget) { state = Mutex(State(remaining: budget)) }

    /// Keeps `parsed`, read from `text`, for `file`, when the budget allows.
    func keep(_ parsed: ParsedSource, text: String, for file: String) {
        let size = text.utf8.count
        state.withLock { state in
            guard state.trees[file] == nil, size <= state.remaining else { return }
            state.remaining -= size
            state.trees[file] = Kept(text: text, parsed: parsed)
        }
    }

    /// The tree kept for `file` when it was read from `text`, left in the store for the scan.
    func peek(_ file: String, text: String) -> ParsedSource? {
        guard let kept = state.withLock({ $0.trees[file] }), kept.text == text else { return nil }
        return kept.parsed
    }

    /// The tree kept for `file` when it was read from `text` (the same text the scan reads: a
    /// file changed in between is read again), taken out of the store.
    func take(_ file: String, text: String) -> ParsedSource? {
        let kept = state.withLock { state -> Kept? in
            guard let kept = state.trees.removeValue(forKey: file) else { return nil }
            state.remaining += kept.text.utf8.count
            return kept
        }
        guard let kept, kept.text == text else { return nil }
        return kept.parsed
    }
}
