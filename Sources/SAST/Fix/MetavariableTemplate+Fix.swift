import PythonSyntax

/// What a `fix:` template needs beyond substitution: statement rewrites, the modules it uses, and
/// strict resolution into code kept as written and new text.
extension MetavariableTemplate {
    /// Whether the template's own text breaks lines: a statement-level rewrite, which needs the
    /// matched region to start its line so that later lines can take its indentation.
    var isMultiLine: Bool { ownText.contains { $0 == "\n" || $0 == "\r\n" || $0 == "\r" } }

    /// Whether the template refers to metavariable `name` (`$X` or `$...X`).
    func names(_ name: String) -> Bool {
        pieces.contains { if case .variable(let n, _) = $0 { return n == name } else { return false } }
    }

    /// Whether the template's own text names `module` as the start of a dotted name (`shlex.split`
    /// uses `shlex`, `os.path.join` uses `os.path`), so the fix needs it imported.
    func uses(module: String) -> Bool {
        let text = Array(ownText.unicodeScalars)
        let name = Array((module + ".").unicodeScalars)
        guard text.count >= name.count else { return false }
        for start in 0...(text.count - name.count) where Array(text[start..<start + name.count]) == name {
            if start == 0 || !(Self.isWordScalar(text[start - 1]) || text[start - 1] == ".") { return true }
        }
        return false
    }

    /// The template with its metavariables resolved against `bindings`; nil when one is unbound (a
    /// fix must not contain `$X`). An empty run (`$...ARGS` bound to no arguments) takes one
    /// neighbouring comma with it, so `f($...ARGS, timeout=30)` becomes `f(timeout=30)`.
    /// `holes`: metavariables whose string's interpolated values are each wrapped (`fix-holes`;
    /// a binding that is not such a string leaves the template unresolved).
    func resolve(_ bindings: Bindings, holes: [String: String] = [:]) -> [FixPiece]? {
        var out: [FixPiece] = []
        var emptyRuns: [Int] = []
        for piece in pieces {
            switch piece {
            case .text(let text):
                out.append(.text(text))
            case .variable(let name, let run):
                guard let binding = bindings[name] else { return nil }
                if let wrapper = holes[name] {
                    guard binding.identifier == nil, binding.nodes.count == 1, let pieces = Self.wrapped(binding.nodes[0], wrapper)
                    else { return nil }
                    out += pieces
                } else if let identifier = binding.identifier {
                    out.append(.text(identifier))
                } else if let first = binding.nodes.first, let last = binding.nodes.last {
                    out.append(.code(first.range.start.offset..<last.range.end.offset))
                } else if run {
                    emptyRuns.append(out.count)
                    out.append(.text(""))
                } else {
                    return nil
                }
            }
        }
        for index in emptyRuns { Self.dropComma(around: index, in: &out) }
        return FixPiece.merged(out)
    }

    /// `node`'s code with each of its holes (``StringHoles``) written inside `wrapper` (`$HOLE`
    /// stands for the hole); nil when `node` has none.
    private static func wrapped(_ node: SyntaxNode, _ wrapper: String) -> [FixPiece]? {
        guard let holes = StringHoles.holes(of: node) else { return nil }
        let parts = wrapper.components(separatedBy: "$HOLE")
        guard parts.count == 2 else { return nil }
        var out: [FixPiece] = []
        var cursor = node.range.start.offset
        for hole in holes {
            guard hole.range.start.offset >= cursor else { return nil }
            out.append(.code(cursor..<hole.range.start.offset))
            out.append(.text(parts[0]))
            out.append(.code(hole.range.start.offset..<hole.range.end.offset))
            out.append(.text(parts[1]))
            cursor = hole.range.end.offset
        }
        out.append(.code(cursor..<node.range.end.offset))
        return out.filter { if case .code(let r) = $0 { return !r.isEmpty } else { return true } }
    }

    /// Removes the comma after position `index` (with the spaces after it), else the one before it.
    private static func dropComma(around index: Int, in pieces: inout [FixPiece]) {
        if index + 1 < pieces.count, case .text(let next) = pieces[index + 1] {
            let trimmed = next.drop { $0 == " " }
            if trimmed.first == "," {
                pieces[index + 1] = .text(String(trimmed.dropFirst().drop { $0 == " " }))
                return
            }
        }
        // Looking back, runs emptied before this one are skipped: `x, $...A, $...B)` loses both.
        var before = index - 1
        while before >= 0, case .text(let text) = pieces[before], text.isEmpty { before -= 1 }
        if before >= 0, case .text(let previous) = pieces[before] {
            var kept = previous[...]
            while kept.last == " " { kept = kept.dropLast() }
            if kept.last == "," { pieces[before] = .text(String(kept.dropLast())) }
        }
    }
}

/// One part of a resolved fix: text the template supplies, or a byte range of the file whose code
/// the fix keeps exactly as written.
enum FixPiece: Sendable, Equatable {
    case text(String)
    case code(Range<Int>)

    /// `pieces` with neighbouring texts joined and empty texts left out.
    static func merged(_ pieces: [FixPiece]) -> [FixPiece] {
        var out: [FixPiece] = []
        for piece in pieces {
            if case .text(let text) = piece {
                if text.isEmpty { continue }
                if case .text(let previous)? = out.last {
                    out[out.count - 1] = .text(previous + text)
                    continue
                }
            }
            out.append(piece)
        }
        return out
    }
}
