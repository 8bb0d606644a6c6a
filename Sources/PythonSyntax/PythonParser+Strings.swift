import SourcePositions

/// String literals: implicit concatenation, escapes, bytes, and f-strings.
extension PyParser {
    /// One or more adjacent string tokens as a ``SyntaxKind/string``, ``SyntaxKind/bytes`` or
    /// ``SyntaxKind/joinedStr`` node.
    mutating func strings() throws -> SyntaxNode {
        let start = tok.start
        var pieces: [SyntaxNode] = []
        var anyFormatted = false
        var sawBytes = false
        var sawText = false
        while tok.kind == .string {
            let t = tok
            advance()
            let s = t.start.offset
            var q = s
            while b[q] != UInt8(ascii: "'") && b[q] != UInt8(ascii: "\"") { q += 1 }
            let prefix = PyStringScan.prefix(b, s, q, python2: python2) ?? PyStringScan.Prefix()
            let triple = q + 2 < b.count && b[q + 1] == b[q] && b[q + 2] == b[q] && t.end.offset - q >= 6
            let bodyStart = q + (triple ? 3 : 1)
            let bodyEnd = t.end.offset - (triple ? 3 : 1)
            if prefix.bytes { sawBytes = true } else { sawText = true }
            if sawBytes && sawText { throw error("cannot mix bytes and nonbytes literals", at: t) }
            if prefix.bytes {
                for k in bodyStart..<bodyEnd where b[k] >= 0x80 {
                    throw error("bytes can only contain ASCII literal characters", at: t)
                }
            }
            let range = SourceRange(start: t.start, end: t.end)
            if prefix.formatted {
                anyFormatted = true
                let parts: [FStringScanner.Part]
                do {
                    parts = try FStringScanner.scan(
                        b, from: bodyStart, limit: t.end.offset, quote: b[q], triple: triple, raw: prefix.raw,
                        openAt: s, depth: 0
                    ).parts
                } catch {
                    throw self.error(error.message, error.code, at: t)
                }
                pieces.append(contentsOf: try fStringPieces(parts, raw: prefix.raw, lines: FStringLines(token: t, bytes: b)))
            } else {
                let value: String
                do {
                    value = try PyStringDecoder.decode(
                        b, bodyStart, bodyEnd, raw: prefix.raw, bytes: prefix.bytes,
                        python2Str: python2 && !prefix.unicode && !prefix.bytes)
                } catch {
                    throw escapeError(error, lines: FStringLines(token: t, bytes: b))
                }
                pieces.append(SyntaxNode(prefix.bytes ? .bytes : .string, text: value, range: range))
            }
        }
        let raw = String(decoding: b[start.offset..<lastEnd.offset], as: UTF8.self)
        if !anyFormatted {
            var text = ""
            for piece in pieces { text += piece.text ?? "" }
            return Self.node(sawBytes ? .bytes : .string, text, from: start, raw: raw, end: lastEnd)
        }
        return Self.node(.joinedStr, nil, merge(pieces), from: start, raw: raw, end: lastEnd)
    }

    /// Joins adjacent literal pieces and drops empty ones, as CPython's AST does.
    private func merge(_ pieces: [SyntaxNode]) -> [SyntaxNode] {
        var out: [SyntaxNode] = []
        for piece in pieces {
            if piece.kind == .string {
                if piece.text?.isEmpty ?? true { continue }
                if out.last?.kind == .string {
                    // Appends in place: copying the growing text each time would be quadratic.
                    let k = out.count - 1
                    if out[k].text == nil { out[k].text = "" }
                    out[k].text?.append(piece.text ?? "")
                    out[k].range.end = piece.range.end
                    continue
                }
            }
            out.append(piece)
        }
        return out
    }

    /// A bad escape, placed at its backslash; worded as CPython words it.
    private func escapeError(_ f: PyStringScan.Failure, lines: FStringLines) -> PythonSyntaxError {
        self.error(f.message, f.code, at: lines.location(f.offset))
    }

    private func fStringPieces(_ parts: [FStringScanner.Part], raw: Bool, lines: FStringLines) throws -> [SyntaxNode] {
        var out: [SyntaxNode] = []
        for part in parts {
            switch part {
            case .literal(let s, let e):
                // `{{`/`}}` end a literal part one byte early, so the body decodes as-is.
                let text: String
                do {
                    text = try PyStringDecoder.decode(b, s, e, raw: raw, bytes: false)
                } catch {
                    throw escapeError(error, lines: lines)
                }
                out.append(
                    SyntaxNode(
                        .string, text: text,
                        range: SourceRange(start: lines.location(s), end: lines.location(e))))
            case .field(let f):
                if let debugEnd = f.debugEnd {
                    let text = String(decoding: b[f.exprStart..<debugEnd], as: UTF8.self)
                    out.append(
                        SyntaxNode(
                            .string, text: text,
                            range: SourceRange(
                                start: lines.location(f.exprStart), end: lines.location(debugEnd))))
                }
                out.append(try formattedValue(f, raw: raw, lines: lines))
            }
        }
        return out
    }

    private func formattedValue(_ f: FStringScanner.Field, raw: Bool, lines: FStringLines) throws -> SyntaxNode {
        let exprLoc = lines.location(f.exprStart)
        var lexer = PythonLexer(
            bytes: b, file: file, allowMetavariables: patternMode, start: f.exprStart, limit: f.exprEnd,
            line: exprLoc.line, column: exprLoc.column, nested: true)
        let (tokens, _) = try lexer.run()
        var sub = PyParser(bytes: b, tokens: tokens, file: file, patternMode: patternMode, depth: depth + 1)
        try sub.enter()
        let value = sub.at("yield") ? try sub.yieldExpression() : try sub.starExpressions()
        guard sub.tok.kind == .end else {
            throw sub.error("f-string: " + sub.error(expected: "'}'").message, .invalidFString)
        }
        var conversion: String?
        if let c = f.conversion {
            guard c == UInt8(ascii: "r") || c == UInt8(ascii: "s") || c == UInt8(ascii: "a") else {
                throw error(
                    "f-string: invalid conversion character: expected 's', 'r', or 'a'", .invalidFString,
                    at: lines.location(f.exprEnd))
            }
            conversion = String(Character(Unicode.Scalar(c)))
        } else if f.debugEnd != nil && f.spec == nil {
            conversion = "r"
        }
        let end = lines.location(f.end)
        var spec = SyntaxNode(.empty, range: SourceRange(start: end, end: end))
        if let specParts = f.spec {
            let pieces = merge(try fStringPieces(specParts, raw: raw, lines: lines))
            let s = pieces.first?.range.start ?? end
            let e = pieces.last?.range.end ?? end
            spec = SyntaxNode(.joinedStr, children: pieces, range: SourceRange(start: s, end: e))
        }
        return SyntaxNode(
            .formattedValue, text: conversion, children: [value, spec],
            range: SourceRange(start: lines.location(f.start), end: end))
    }
}

/// Lines inside one f-string token, so offsets of its pieces map to lines and columns in
/// O(log n) (scanning from the token start for each piece would be quadratic in the literal's size).
struct FStringLines {
    let token: PythonToken
    /// The token's own lines; `nil` for the common one-line f-string, which needs no index.
    private let lines: LineIndex?

    init(token: PythonToken, bytes b: [UInt8]) {
        self.token = token
        lines = token.end.line > token.start.line ? LineIndex(Array(b[token.start.offset..<token.end.offset])) : nil
    }

    func location(_ offset: Int) -> SourceLocation {
        let relative = offset - token.start.offset
        guard let lines, case let line = lines.line(containingOffset: relative), line > 1 else {
            return SourceLocation(line: token.start.line, column: token.start.column + relative, offset: offset)
        }
        return SourceLocation(
            line: token.start.line + line - 1, column: relative - lines.lineStarts[line - 1] + 1, offset: offset)
    }
}
