import Foundation

/// Lines of the scanned files, read on demand from the host scan root and kept for the rest of
/// one report: adapters use them for snippets a tool does not print and to turn byte columns
/// into code-point columns.
final class SourceLines {
    private let root: String?
    private var files: [String: [ArraySlice<UInt8>]?] = [:]

    /// - Parameter root: the host scan root; `nil` reads nothing (every lookup is `nil`).
    init(root: String?) {
        self.root = root
    }

    /// The bytes of 1-based `line` of `file` (relative to the root), without its newline.
    func line(_ line: Int, of file: String) -> ArraySlice<UInt8>? {
        guard let lines = lines(of: file), line >= 1, line <= lines.count else { return nil }
        return lines[line - 1]
    }

    /// Lines `first...last` of `file` joined with newlines; `nil` when any is missing.
    func text(of file: String, from first: Int, through last: Int) -> String? {
        guard first >= 1, last >= first else { return nil }
        var parts: [String] = []
        for number in first...last {
            guard let bytes = line(number, of: file) else { return nil }
            parts.append(String(decoding: bytes, as: UTF8.self))
        }
        return parts.joined(separator: "\n")
    }

    private func lines(of file: String) -> [ArraySlice<UInt8>]? {
        if let cached = files[file] { return cached }
        var result: [ArraySlice<UInt8>]?
        if let root, !file.hasPrefix("/"), !file.split(separator: "/").contains(".."),
            let data = FileManager.default.contents(atPath: (root as NSString).appendingPathComponent(file))
        {
            let bytes = [UInt8](data)
            result = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
                line.last == 0x0D ? line.dropLast() : line
            }
        }
        files[file] = result
        return result
    }
}
