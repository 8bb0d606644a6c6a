/// One node of a JavaScript or TypeScript syntax tree: a kind, an optional text, children and a range.
///
/// The shape is uniform on purpose, as ``PythonSyntax``'s `SyntaxNode` is: a structural matcher or the
/// lowering to a language-neutral tree compares `kind`, `text` and children pairwise without knowing
/// the grammar. See ``JSNodeKind`` for each kind's child layout.
///
/// A node is a value with one shared, immutable storage object, so that copying a node during walks
/// costs one retain; a setter replaces the storage, so copies never see each other's changes.
public struct JSNode: Sendable, Hashable {
    /// The node's fields; compared and hashed as a whole, children last (the costly part).
    private struct Fields: Sendable, Hashable {
        var kind: JSNodeKind
        var text: String?
        var range: SourceRange
        var raw: String?
        var children: [JSNode]
    }

    private final class Storage: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var storage: Storage

    /// A copy of the fields with `change` made, in a storage of its own.
    private mutating func update(_ change: (inout Fields) -> Void) {
        var fields = storage.fields
        change(&fields)
        storage = Storage(fields)
    }

    /// What this node is.
    public var kind: JSNodeKind {
        get { storage.fields.kind }
        set { update { $0.kind = newValue } }
    }
    /// Identifier, operator, name, modifier or decoded literal value, depending on `kind`.
    public var text: String? {
        _read { yield storage.fields.text }
        set { update { $0.text = newValue } }
    }
    /// Children in the order documented on `kind`.
    public var children: [JSNode] {
        _read { yield storage.fields.children }
        set { update { $0.children = newValue } }
    }
    /// Where the node is in the source.
    public var range: SourceRange {
        get { storage.fields.range }
        set { update { $0.range = newValue } }
    }
    /// Source text of literals (strings with their quotes, numbers as written, regexes with flags).
    public var raw: String? {
        _read { yield storage.fields.raw }
        set { update { $0.raw = newValue } }
    }

    /// Creates a node.
    public init(
        _ kind: JSNodeKind, text: String? = nil, children: [JSNode] = [], range: SourceRange, raw: String? = nil
    ) {
        storage = Storage(Fields(kind: kind, text: text, range: range, raw: raw, children: children))
    }

    /// Whether this is the placeholder for an absent optional child.
    public var isEmpty: Bool { kind == .empty }

    /// Structural equality; a node shares its storage with its copies, which are equal at once.
    public static func == (lhs: JSNode, rhs: JSNode) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    /// Hashes the fields `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.fields)
    }
}

extension JSNode {
    /// A compact S-expression of the tree, for tests: `(binary + (identifier a) (number 1))`.
    ///
    /// Ranges and `raw` are left out; string values are quoted with Swift escapes; ``JSNodeKind/empty``
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
            case .string, .templateElement, .jsxText: out += text.debugDescription
            default: out += text
            }
        }
        for child in children {
            out += " "
            child.appendSExpr(to: &out)
        }
        out += ")"
    }

    /// Every node of the tree in pre-order, walked with an explicit stack (trees can be deep).
    public func forEachNode(_ body: (JSNode) -> Void) {
        var stack = [self]
        while let node = stack.popLast() {
            body(node)
            stack.append(contentsOf: node.children.reversed())
        }
    }
}
