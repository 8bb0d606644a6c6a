import Findings
import Foundation
import SourcePositions
import Support

/// Lines of the scanned files, read on demand from the host scan root and kept for the rest of
/// one report: adapters use them for snippets a tool does not print and to turn byte columns
/// into code-point columns. The tool's report names the files, so they are read through the
/// root's `TreeReader`: a name that leads out of the tree (`e/shadow`, `e -> /etc`) reads nothing.
final class SourceLines {
    private let tree: TreeReader?
    private var files: [String: LineIndex?] = [:]

    /// - Parameter root: the host scan root; `nil` reads nothing (every lookup is `nil`).
    init(root: String?) {
        self.tree = root.flatMap { try? TreeReader(path: $0) }
    }

    /// The bytes of 1-based `line` of `file` (relative to the root), without its line break.
    func line(_ line: Int, of file: String) -> ArraySlice<UInt8>? {
        guard let lines = lines(of: file), line >= 1, line <= lines.lineCount else { return nil }
        return lines.bytes(ofLine: line)
    }

    /// Lines `first...last` of `file` joined with newlines; `nil` when any is missing.
    func text(of file: String, from first: Int, through last: Int) -> String? {
        guard first >= 1, last >= first, let lines = lines(of: file), last <= lines.lineCount else { return nil }
        return lines.lines(first, last)
    }

    private func lines(of file: String) -> LineIndex? {
        if let cached = files[file] { return cached }
        var result: LineIndex?
        if let data = try? tree?.read(file, limit: 1 << 30) {
            result = LineIndex(data)
        }
        files[file] = result
        return result
    }
}
