import Foundation

/// A Python traceback as the interpreter prints it: frames outermost first, then
/// `ExceptionType: message`. With chained exceptions ("During handling of the above
/// exception…"), the last traceback is the one that ended the program.
public struct PythonTraceback: Sendable, Hashable {
    /// One `File "…", line N, in func` frame.
    public struct Frame: Sendable, Hashable {
        /// The file as printed.
        public var file: String
        /// 1-based line.
        public var line: Int
        /// The function (`<module>` at top level).
        public var function: String
    }

    /// Frames, outermost first (as printed).
    public var frames: [Frame]
    /// `ZeroDivisionError`, `mypkg.errors.Invalid`.
    public var exceptionType: String
    /// The text after `Type: `, possibly empty.
    public var message: String

    /// The header every CPython traceback starts with.
    static let header = "Traceback (most recent call last):"

    /// The last complete traceback in `text`, or nil when there is none.
    public static func last(in text: String) -> PythonTraceback? {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        guard let start = lines.lastIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasSuffix(header) })
        else { return nil }
        return parse(lines[(start + 1)...])
    }

    private static func parse(_ lines: ArraySlice<String>) -> PythonTraceback? {
        var frames: [Frame] = []
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let frame = frame(trimmed) {
                frames.append(frame)
                continue
            }
            // Source lines and carets are indented; the exception line is not (or less than frames).
            if line.hasPrefix(" ") || line.hasPrefix("\t") || trimmed.isEmpty { continue }
            guard let (type, message) = exceptionLine(trimmed) else { continue }
            return PythonTraceback(frames: frames, exceptionType: type, message: message)
        }
        return nil
    }

    /// `File "path", line 12, in name`.
    static func frame(_ line: String) -> Frame? {
        guard line.hasPrefix("File \"") else { return nil }
        let rest = line.dropFirst(6)
        guard let quote = rest.firstIndex(of: "\"") else { return nil }
        let file = String(rest[..<quote])
        let after = rest[rest.index(after: quote)...]
        guard let lineRange = after.range(of: ", line ") else { return nil }
        let digits = after[lineRange.upperBound...].prefix { $0.isNumber }
        guard let number = Int(digits) else { return nil }
        var function = "<module>"
        if let inRange = after.range(of: ", in ") { function = String(after[inRange.upperBound...]) }
        return Frame(file: file, line: number, function: function)
    }

    /// `Type: message` or a bare `Type` (a dotted identifier ending the traceback).
    static func exceptionLine(_ line: String) -> (String, String)? {
        let head: Substring
        var message = ""
        if let colon = line.firstIndex(of: ":") {
            head = line[..<colon]
            message = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        } else {
            head = line[...]
        }
        guard let first = head.first, first.isLetter || first == "_",
            head.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
        else { return nil }
        return (String(head), message)
    }
}

extension PythonTraceback {
    /// The signal for a traceback: innermost frame first in locations and top frames.
    func signal(source: String, kind: Signal.Kind = .exception) -> Signal {
        let inner = frames.reversed()
        let shortType = exceptionType.split(separator: ".").last.map(String.init) ?? exceptionType
        return Signal(
            kind: kind, source: source,
            message: message.isEmpty ? exceptionType : "\(shortType): \(message)",
            locations: inner.map { Signal.Location(file: $0.file, line: $0.line, function: $0.function) },
            exceptionType: exceptionType,
            topFrames: inner.prefix(3).map { "\(Self.baseName($0.file)):\($0.function)" })
    }

    /// Frames name absolute paths that differ between machines; the fingerprint keeps the last
    /// two path components.
    static func baseName(_ file: String) -> String {
        file.split(separator: "/").suffix(2).joined(separator: "/")
    }
}
