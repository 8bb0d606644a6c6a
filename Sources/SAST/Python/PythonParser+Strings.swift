/// String literals: implicit concatenation, escapes, bytes, and f-strings.
extension PyParser {
    /// One or more adjacent string tokens as a ``PyNodeKind/string``, ``PyNodeKind/bytes`` or
    /// ``PyNodeKind/joinedStr`` node.
    mutating func strings() throws -> PyNode {
        let start = tok.start
        var pieces: [PyNode] = []
        var anyFormatted = false
        var sawBytes = false
        var sawText = false
        while tok.kind == .string {
            let t = tok
            advance()
            let s = t.start.offset
            var q = s
            while b[q] != UInt8(ascii: "'") && b[q] != UInt8(ascii: "\"") { q += 1 }
            let prefix = PyStringScan.prefix(b, s, q) ?? PyStringScan.Prefix()
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
                pieces.append(contentsOf: try fStringPieces(parts, raw: prefix.raw, token: t))
            } else {
                let value = PyStringDecoder.decode(b, bodyStart, bodyEnd, raw: prefix.raw, bytes: prefix.bytes)
                pieces.append(PyNode(prefix.bytes ? .bytes : .string, text: value, range: range))
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
    private func merge(_ pieces: [PyNode]) -> [PyNode] {
        var out: [PyNode] = []
        for piece in pieces {
            if piece.kind == .string {
                if piece.text?.isEmpty ?? true { continue }
                if let last = out.last, last.kind == .string {
                    out[out.count - 1].text = (last.text ?? "") + (piece.text ?? "")
                    out[out.count - 1].range.end = piece.range.end
                    continue
                }
            }
            out.append(piece)
        }
        return out
    }

    private func location(of offset: Int, token t: PyToken) -> SourceLocation {
        let (line, column) = PythonLexer.lineColumn(
            of: offset, in: b, from: t.start.offset - (t.start.column - 1), line: t.start.line)
        return SourceLocation(line: line, column: column, offset: offset)
    }

    private func fStringPieces(_ parts: [FStringScanner.Part], raw: Bool, token t: PyToken) throws -> [PyNode] {
        var out: [PyNode] = []
        for part in parts {
            switch part {
            case .literal(let s, let e):
                // `{{`/`}}` end a literal part one byte early, so the body decodes as-is.
                let text = PyStringDecoder.decode(b, s, e, raw: raw, bytes: false)
                out.append(
                    PyNode(
                        .string, text: text,
                        range: SourceRange(start: location(of: s, token: t), end: location(of: e, token: t))))
            case .field(let f):
                if let debugEnd = f.debugEnd {
                    let text = String(decoding: b[f.exprStart..<debugEnd], as: UTF8.self)
                    out.append(
                        PyNode(
                            .string, text: text,
                            range: SourceRange(
                                start: location(of: f.exprStart, token: t), end: location(of: debugEnd, token: t))))
                }
                out.append(try formattedValue(f, raw: raw, token: t))
            }
        }
        return out
    }

    private func formattedValue(_ f: FStringScanner.Field, raw: Bool, token t: PyToken) throws -> PyNode {
        let exprLoc = location(of: f.exprStart, token: t)
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
                    at: location(of: f.exprEnd, token: t))
            }
            conversion = String(Character(Unicode.Scalar(c)))
        } else if f.debugEnd != nil && f.spec == nil {
            conversion = "r"
        }
        let end = location(of: f.end, token: t)
        var spec = PyNode(.empty, range: SourceRange(start: end, end: end))
        if let specParts = f.spec {
            let pieces = merge(try fStringPieces(specParts, raw: raw, token: t))
            let s = pieces.first?.range.start ?? end
            let e = pieces.last?.range.end ?? end
            spec = PyNode(.joinedStr, children: pieces, range: SourceRange(start: s, end: e))
        }
        return PyNode(
            .formattedValue, text: conversion, children: [value, spec],
            range: SourceRange(start: location(of: f.start, token: t), end: end))
    }
}
