import Git
import Support

/// Turns a model's reply into file changes: SEARCH/REPLACE blocks, or else a unified diff.
/// Every failure is a `SentinelError(.llmEdits)` naming the block or file, worded so that the
/// heal loop can hand it back to the model as a lesson.
public enum LLMEdits {
    /// The changes `reply` makes to `files` (repository-relative path → current content; at
    /// least every file shown to the model). Only files that actually change are returned,
    /// `before` taken from `files` (nil for a new file).
    ///
    /// SEARCH/REPLACE blocks apply in order, each to the result of the ones before; SEARCH must
    /// match exactly once (a whitespace-tolerant match is the fallback, also only when unique);
    /// an empty SEARCH creates a file. A diff applies with `GitPatch.apply`. Paths must stay
    /// inside the repository (`GitPatch.checkRelative`) and name a file in `files` unless the
    /// edit creates it; a path missing from `files` counts as new, so pass every existing file
    /// the model may name.
    public static func changes(from reply: String, files: [String: String]) throws -> [FileChange] {
        let blocks = try SearchReplaceBlock.parse(reply)
        let changes: [FileChange]
        if !blocks.isEmpty {
            changes = try apply(blocks, to: files)
        } else if let diff = ReplyDiff.extract(reply) {
            changes = try applyDiff(diff, to: files)
        } else {
            throw SentinelError(.llmEdits, "the reply holds neither SEARCH/REPLACE blocks nor a unified diff")
        }
        guard !changes.isEmpty else { throw SentinelError(.llmEdits, "the reply's edits change nothing") }
        return changes
    }

    private static func apply(_ blocks: [SearchReplaceBlock], to files: [String: String]) throws -> [FileChange] {
        var edited: [String: String] = [:]
        var order: [String] = []
        for block in blocks {
            let label = "block \(block.number) (\(block.path))"
            guard (try? GitPatch.checkRelative(block.path)) != nil else {
                throw SentinelError(.llmEdits, "\(label): not a path inside the repository")
            }
            let searchIsEmpty = block.search.allSatisfy { $0.allSatisfy(\.isWhitespace) }
            let current = edited[block.path] ?? files[block.path]
            let result: String
            switch current {
            case nil where searchIsEmpty, .some("") where searchIsEmpty:
                result = block.replace.joined(separator: "\n") + "\n"
            case nil:
                throw SentinelError(
                    .llmEdits, "\(label): not one of the files shown; to create a file, leave SEARCH empty")
            case .some where searchIsEmpty:
                throw SentinelError(
                    .llmEdits, "\(label): SEARCH is empty but the file exists; copy the lines to change into SEARCH")
            case .some(let text):
                do {
                    result = try SearchReplaceMatch.apply(search: block.search, replace: block.replace, in: text)
                } catch {
                    throw SentinelError(.llmEdits, "\(label): \(explain(error, block))")
                }
            }
            if edited[block.path] == nil { order.append(block.path) }
            edited[block.path] = result
        }
        return order.compactMap { path in
            files[path] == edited[path] ? nil : FileChange(path: path, before: files[path], after: edited[path])
        }
    }

    private static func explain(_ failure: SearchReplaceMatch.Failure, _ block: SearchReplaceBlock) -> String {
        switch failure {
        case .noMatch:
            let first = block.search.first { !$0.allSatisfy(\.isWhitespace) } ?? ""
            let shown = first.count > 80 ? String(first.prefix(80)) + "…" : first
            let trimmed = shown.trimmingCharacters(in: .whitespaces)
            return "SEARCH does not match the file (its first line: `\(trimmed)`); copy the lines exactly as they are"
        case .ambiguous(let count, let fuzzy):
            let how = fuzzy ? " when whitespace is ignored" : ""
            return "SEARCH matches \(count) places\(how); include more surrounding lines so that it matches one"
        }
    }

    private static func applyDiff(_ diff: String, to files: [String: String]) throws -> [FileChange] {
        let patch = ReplyDiff.normalized(diff)
        let (old, new) = ReplyDiff.paths(patch)
        guard !old.isEmpty || !new.isEmpty else {
            throw SentinelError(.llmEdits, "unified diff: no --- and +++ file headers")
        }
        for path in old + new where (try? GitPatch.checkRelative(path)) == nil {
            throw SentinelError(.llmEdits, "unified diff (\(path)): not a path inside the repository")
        }
        for path in old where files[path] == nil {
            throw SentinelError(
                .llmEdits, "unified diff (\(path)): not one of the files shown; a new file needs --- /dev/null")
        }
        // Only the files the diff names go into git's scratch repository.
        let touched = files.filter { old.contains($0.key) || new.contains($0.key) }
        do {
            return try GitPatch.apply(patch, to: touched).filter { $0.before != $0.after }
        } catch let error as SentinelError {
            throw SentinelError(.llmEdits, "unified diff does not apply: \(error.message)")
        }
    }
}
