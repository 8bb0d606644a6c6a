/// One node of a Python syntax tree: a kind, an optional text, children and a source range.
///
/// The shape is uniform on purpose: a structural matcher compares `kind`, `text` and children
/// pairwise without knowing the grammar. See ``PyNodeKind`` for each kind's child layout.
public struct PyNode: Sendable, Hashable {
    /// What this node is.
    public var kind: PyNodeKind
    /// Identifier, operator, attribute/keyword name, or decoded literal value, depending on `kind`.
    public var text: String?
    /// Children in the order documented on `kind`.
    public var children: [PyNode]
    /// Where the node is in the source.
    public var range: SourceRange
    /// Source text of literals (strings keep their prefixes and quotes), nil elsewhere.
    public var raw: String?

    /// Creates a node.
    public init(
        _ kind: PyNodeKind, text: String? = nil, children: [PyNode] = [], range: SourceRange,
        raw: String? = nil
    ) {
        self.kind = kind
        self.text = text
        self.children = children
        self.range = range
        self.raw = raw
    }

    /// Whether this is the placeholder for an absent optional child.
    public var isEmpty: Bool { kind == .empty }
}

extension PyNode {
    /// A compact S-expression of the tree, for tests: `(binOp + (name a) (integer 1))`.
    ///
    /// Ranges and `raw` are left out; string values are quoted with Swift escapes; ``PyNodeKind/empty``
    /// prints as `_`.
    public var sexpr: String {
        var out = ""
        appendSExpr(to: &out)
        return out
    }

    private func appendSExpr(to out: inout String) {
        if kind == .empty {
            out += "_"
            return
        }
        out += "("
        out += kind.rawValue
        if let text {
            out += " "
            switch kind {
            case .string, .bytes: out += text.debugDescription
            default: out += text
            }
        }
        for child in children {
            out += " "
            child.appendSExpr(to: &out)
        }
        out += ")"
    }
}
