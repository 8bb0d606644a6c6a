/// A message or `fix:` template split into its own text and the metavariables (`$X`, `$...X`) it
/// refers to.
struct MetavariableTemplate: Sendable {
    /// One part of the template as written.
    enum Piece: Sendable, Equatable {
        case text(String)
        /// `$X` or (`run`) `$...X`; `name` is spelled as in bindings (`$X`, `$...X`).
        case variable(name: String, run: Bool)
    }

    let pieces: [Piece]

    init(_ template: String) {
        var pieces: [Piece] = []
        var text = ""
        var rest = template[...]
        while let dollar = rest.firstIndex(of: "$") {
            text += rest[..<dollar]
            var end = rest.index(after: dollar)
            let run = rest[end...].hasPrefix("...")
            if run { end = rest.index(end, offsetBy: 3) }
            let nameStart = end
            while end < rest.endIndex, rest[end].isUppercase || rest[end].isNumber || rest[end] == "_" {
                end = rest.index(after: end)
            }
            if end == nameStart {
                text += rest[dollar..<end]
            } else {
                if !text.isEmpty { pieces.append(.text(text)) }
                text = ""
                pieces.append(.variable(name: String(rest[dollar..<end]), run: run))
            }
            rest = rest[end...]
        }
        text += rest
        if !text.isEmpty { pieces.append(.text(text)) }
        self.pieces = pieces
    }

    /// The template's own text, metavariables left out.
    var ownText: String {
        pieces.reduce(into: "") { out, piece in
            if case .text(let text) = piece { out += text }
        }
    }

    /// The template with each bound metavariable replaced by its source text; unbound ones stay as
    /// written (messages; fixes resolve strictly, see `resolve`).
    func substitute(_ bindings: Bindings, _ source: SourceText) -> String {
        pieces.reduce(into: "") { out, piece in
            switch piece {
            case .text(let text): out += text
            case .variable(let name, _): out += bindings[name]?.text(in: source) ?? name
            }
        }
    }

    /// Identifier characters (Python's `XID_Continue`, plus `_`).
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isXIDContinue
    }
}
