import Foundation
import Signals

/// Whether a run's output still shows an exception or an error-log signal: the exception's type
/// raised (`json.decoder.JSONDecodeError: …`, pytest's `E   JSONDecodeError: …`, a summary's
/// `- JSONDecodeError: …`), or the log message's shape. An exit status proves nothing about
/// such a signal: the verify command may pass for another reason while the exception stays,
/// or never have raised it at all.
enum SignalEcho {
    /// True for the signals judged by what the output shows (exceptions and error logs).
    static func applies(to signal: Signal) -> Bool {
        signal.kind == .exception || signal.kind == .logError
    }

    /// Whether `output` shows `signal` (false for signals it does not apply to).
    static func shows(_ signal: Signal, in output: String) -> Bool {
        guard applies(to: signal) else { return false }
        let lines = output.split(whereSeparator: \.isNewline)
        if let type = signal.exceptionType, !type.isEmpty {
            let short = type.split(separator: ".").last.map(String.init) ?? type
            return lines.contains { raises(short, in: $0) }
        }
        let wanted = String(Signal.shape(of: signal.message).trimmingCharacters(in: .whitespaces).prefix(80))
        guard !wanted.isEmpty else { return false }
        return lines.contains { Signal.shape(of: String($0)).contains(wanted) }
    }

    /// `type` as an exception line names it: preceded by nothing, a space, a dot or `E`'s
    /// indentation, followed by `:` or the end of the line.
    private static func raises(_ type: String, in line: Substring) -> Bool {
        var rest = line[...]
        while let range = rest.range(of: type) {
            let before = range.lowerBound == line.startIndex ? nil : line[line.index(before: range.lowerBound)]
            let after = range.upperBound == line.endIndex ? nil : line[range.upperBound]
            let boundary = before.map { !($0.isLetter || $0.isNumber || $0 == "_") } ?? true
            if boundary, after == nil || after == ":" { return true }
            rest = line[range.upperBound...]
        }
        return false
    }
}
