import Foundation

/// Why a Wapiti run failed, read from what it printed (its log goes to stderr in the sandbox):
/// past its ASCII-art banner and its `[*]` progress lines, a Python traceback's last line, else
/// the first `[!]`/error line, else the first line left.
enum WapitiFailure {
    static func reason(_ stderr: Data) -> String? {
        var lines = String(decoding: stderr.prefix(1 << 20), as: UTF8.self)
            .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if let banner = lines.firstIndex(where: { $0.hasPrefix("Wapiti ") && $0.dropFirst(7).first?.isNumber == true }) {
            lines.removeFirst(banner + 1)
        }
        lines.removeAll { $0.hasPrefix("[*]") }
        if let traceback = lines.firstIndex(where: { $0.hasPrefix("Traceback (most recent call last)") }),
            let last = lines.last, traceback < lines.count - 1
        {
            return ToolFailure.oneLine(last)
        }
        let error = lines.first { line in
            let lower = line.lowercased()
            return line.hasPrefix("[!]") || lower.hasPrefix("error") || lower.contains("error:")
        }
        return (error ?? lines.first).map(ToolFailure.oneLine)
    }
}
