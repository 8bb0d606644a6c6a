/// One node of a Python syntax tree: a kind, an optional text, children and a source range.
///
/// The shape is uniform on purpose: a structural matcher compares `kind`, `text` and children
/// pairwise without knowing the grammar. See ``PyNodeKind`` for each kind's child layout.
///
/// A node is a value with one shared, immutable storage object: the analyses copy nodes constantly
/// (walks, matches, summaries), and a copy is then one retain instead of three plus ~90 bytes; a
/// setter replaces the storage, so copies never see each other's changes.
public struct PyNode: Sendable, Hashable {
    private final class Storage: Sendable {
        let kind: PyNodeKind
        let text: String?
        let children: [PyNode]
        let range: SourceRange
        let raw: String?

        init(kind: PyNodeKind, text: String?, children: [PyNode], range: SourceRange, raw: String?) {
            self.kind = kind
            self.text = text
            self.children = children
            self.range = range
            self.raw = raw
        }
    }

    private var storage: Storage

    /// What this node is.
    public var kind: PyNodeKind {
        get { storage.kind }
        set { storage = Storage(kind: newValue, text: text, children: children, range: range, raw: raw) }
    }
    /// Identifier, operator, attribute/keyword name, or decoded literal value, depending on `kind`.
    public var text: String? {
        _read { yield storage.text }
        set { storage = Storage(kind: kind, text: newValue, children: children, range: range, raw: raw) }
    }
    /// Children in the order documented on `kind`.
    public var children: [PyNode] {
        _read { yield storage.children }
        set { storage = Storage(kind: kind, text: text, children: newValue, range: range, raw: raw) }
    }
    /// Where the node is in the source.
    public var range: SourceRange {
        get { storage.range }
        set { storage = Storage(kind: kind, text: text, children: children, range: newValue, raw: raw) }
    }
    /// Source text of literals (strings keep their prefixes and quotes), nil elsewhere.
    public var raw: String? {
        _read { yield storage.raw }
        set { storage = Storage(kind: kind, text: text, children: children, range: range, raw: newValue) }
    }

    /// Creates a node.
    public init(
        _ kind: PyNodeKind, text: String? = nil, children: [PyNode] = [], range: SourceRange,
        raw: String? = nil
    ) {
        storage = Storage(kind: kind, text: text, children: children, range: range, raw: raw)
    }

    /// Whether this is the placeholder for an absent optional child.
    public var isEmpty: Bool { kind == .empty }

    /// Structural equality; a node shares its storage with its copies, which are equal at once.
    public static func == (lhs: PyNode, rhs: PyNode) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.kind == rhs.kind && lhs.text == rhs.text && lhs.range == rhs.range && lhs.raw == rhs.raw
            && lhs.children == rhs.children
    }

    /// Hashes the fields `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(text)
        hasher.combine(children)
        hasher.combine(range)
        hasher.combine(raw)
    }
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
