import PythonSyntax
import Support

/// A Python file prepared for repair templates: its bytes, tokens and tree, with the queries
/// templates share. Templates locate what they change by tokens and node ranges, so an edit
/// touches only its own bytes and the rest of the file (comments, spacing) stays byte-identical.
public struct RepairFile: Sendable {
    /// Repository-relative path.
    public let path: String
    /// The file's text.
    public let source: String
    /// The parsed module.
    public let module: PythonModule
    /// The tokens, in source order.
    public let tokens: [PythonToken]
    /// The source as UTF-8, which offsets index.
    let bytes: [UInt8]
    /// Offset of the first byte of each line; line `n` starts at `lineStarts[n - 1]`.
    let lineStarts: [Int]

    /// Parses `source`. Throws `SentinelError(.invalidInput)` when it is not valid Python.
    public init(path: String, source: String) throws {
        self.path = path
        self.source = source
        let bytes = Array(source.utf8)
        self.bytes = bytes
        self.lineStarts = [0] + bytes.indices.filter { bytes[$0] == 10 }.map { $0 + 1 }
        do {
            self.module = try PythonParser.parseModule(source: source, fileName: path)
            self.tokens = try PythonParser.tokenize(source: source, fileName: path)
        } catch let error as PythonSyntaxError {
            throw SentinelError(.invalidInput, "\(path): cannot repair a file that does not parse: \(error)")
        }
    }

    /// The source text of bytes `start..<end`.
    func text(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[max(0, start)..<min(end, bytes.count)], as: UTF8.self)
    }

    /// The source text of `node`.
    func text(of node: SyntaxNode) -> String { text(node.range.start.offset, node.range.end.offset) }

    /// Every node whose range covers `line`, in pre-order (outer statements before their parts).
    func nodes(onLine line: Int) -> [SyntaxNode] {
        var out: [SyntaxNode] = []
        module.root.walk { node in
            guard node.range.contains(line: line) else { return false }
            out.append(node)
            return true
        }
        return out
    }

    /// Index of the first token that starts at or after `offset`.
    func tokenIndex(atOrAfter offset: Int) -> Int {
        tokens.partitioningIndex { $0.range.start.offset >= offset }
    }

    /// The tokens lying wholly inside bytes `start..<end`.
    func tokens(from start: Int, to end: Int) -> [PythonToken] {
        var out: [PythonToken] = []
        var index = tokenIndex(atOrAfter: start)
        while index < tokens.count, tokens[index].range.end.offset <= end, tokens[index].kind != .end {
            if tokens[index].range.start.offset < end { out.append(tokens[index]) }
            index += 1
        }
        return out
    }

    /// The operator tokens between two sibling nodes (`<`, `not in`, `and`), parentheses left out:
    /// `(a) < (b)` has `)`, `<`, `(` between `a` and `b`.
    func operatorTokens(between left: SyntaxNode, and right: SyntaxNode) -> [PythonToken] {
        tokens(from: left.range.end.offset, to: right.range.start.offset).filter { $0.text != "(" && $0.text != ")" }
    }

    /// A plain string literal token's quote and body: quotes at both ends, no prefix (f-strings and
    /// bytes are left alone), not triple-quoted, no escapes. Nil for any other token.
    func plainString(_ token: PythonToken) -> (quote: Character, body: String)? {
        let text = token.text
        guard token.kind == .string, let quote = text.first, quote == "\"" || quote == "'", text.count >= 3,
            text.last == quote, !text.hasPrefix("\"\"\""), !text.hasPrefix("'''")
        else { return nil }
        let body = String(text.dropFirst().dropLast())
        return body.contains("\\") ? nil : (quote, body)
    }

    /// The deepest statement that starts on `line` as the first thing on it.
    func statement(startingOn line: Int) -> SyntaxNode? {
        nodes(onLine: line).last { node in
            node.kind.isStatement && node.range.start.line == line
                && node.range.start.column == indentation(ofLine: line).utf8.count + 1
        }
    }

    /// The innermost function whose body covers `line` (not its header).
    func enclosingFunction(ofLine line: Int) -> SyntaxNode? {
        nodes(onLine: line).last { node in
            (node.kind == .functionDef || node.kind == .asyncFunctionDef) && node.children[4].range.start.line <= line
                && line <= codeEnd(of: node.children[4]).line
        }
    }

    /// Where the code of `node` ends. A compound statement's range runs on to the dedent after
    /// its body, which sits on the next statement's line; this is the end of its last real token.
    func codeEnd(of node: SyntaxNode) -> SourceLocation {
        var index = tokenIndex(atOrAfter: node.range.end.offset) - 1
        while index > 0, [.newline, .indent, .dedent, .end].contains(tokens[index].kind) { index -= 1 }
        guard index >= 0, tokens[index].range.end.offset > node.range.start.offset else { return node.range.end }
        return tokens[index].range.end
    }

    /// Offset of the first byte of `line` (1-based); the end of the file past the last line.
    func offset(ofLine line: Int) -> Int {
        line >= 1 && line <= lineStarts.count ? lineStarts[line - 1] : bytes.count
    }

    /// Offset just past the line break ending the line that holds `offset` (the file's end if none).
    func offset(afterLineHolding offset: Int) -> Int {
        var index = offset
        while index < bytes.count, bytes[index] != 10 { index += 1 }
        return min(index + 1, bytes.count)
    }

    /// The file's line break (`\r\n` when its first line ends so), for inserted lines.
    var lineBreak: String {
        guard let first = bytes.firstIndex(of: 10) else { return "\n" }
        return first > 0 && bytes[first - 1] == 13 ? "\r\n" : "\n"
    }

    /// The leading spaces and tabs of `line`.
    func indentation(ofLine line: Int) -> String {
        let start = offset(ofLine: line)
        var end = start
        while end < bytes.count, bytes[end] == 32 || bytes[end] == 9 { end += 1 }
        return text(start, end)
    }
}
