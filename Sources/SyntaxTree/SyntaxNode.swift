/// One node of the syntax tree every language lowers into (DESIGN §1b, "The language seam"): a
/// kind, an optional text, children and a source range. No parser owns it: Python's parser builds
/// it directly, JavaScript/TypeScript's tree is lowered into it, and the SAST engine reads only it.
///
/// The shape is uniform on purpose: a structural matcher compares `kind`, `text` and children
/// pairwise without knowing the grammar. See ``SyntaxKind`` for each kind's child layout, and the
/// typed views (``call``, ``functionDefinition``, ``assignment``) for the common positional reads.
///
/// A node is a value with one shared, immutable storage object: the analyses copy nodes constantly
/// (walks, matches, summaries), and a copy is then one retain instead of three plus ~90 bytes; a
/// setter replaces the storage, so copies never see each other's changes.
public struct SyntaxNode: Sendable, Hashable {
    /// The node's fields; compared and hashed as a whole, children last (the costly part).
    private struct Fields: Sendable, Hashable {
        var kind: SyntaxKind
        var text: String?
        var range: SourceRange
        var raw: String?
        var children: [SyntaxNode]
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
    public var kind: SyntaxKind {
        get { storage.fields.kind }
        set { update { $0.kind = newValue } }
    }
    /// Identifier, operator, attribute/keyword name, or decoded literal value, depending on `kind`.
    public var text: String? {
        _read { yield storage.fields.text }
        set { update { $0.text = newValue } }
    }
    /// Children in the order documented on `kind`.
    public var children: [SyntaxNode] {
        _read { yield storage.fields.children }
        set { update { $0.children = newValue } }
    }
    /// Where the node is in the source.
    public var range: SourceRange {
        get { storage.fields.range }
        set { update { $0.range = newValue } }
    }
    /// Source text of literals (strings keep their prefixes and quotes), nil elsewhere.
    public var raw: String? {
        _read { yield storage.fields.raw }
        set { update { $0.raw = newValue } }
    }

    /// Creates a node.
    public init(
        _ kind: SyntaxKind, text: String? = nil, children: [SyntaxNode] = [], range: SourceRange,
        raw: String? = nil
    ) {
        storage = Storage(Fields(kind: kind, text: text, range: range, raw: raw, children: children))
    }

    /// Whether this is the placeholder for an absent optional child.
    public var isEmpty: Bool { kind == .empty }

    /// Structural equality; a node shares its storage with its copies, which are equal at once.
    public static func == (lhs: SyntaxNode, rhs: SyntaxNode) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    /// Hashes the fields `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.fields)
    }
}

extension SyntaxNode {
    /// A compact S-expression of the tree, for tests: `(binOp + (name a) (integer 1))`.
    ///
    /// Ranges and `raw` are left out; string values are quoted with Swift escapes; ``SyntaxKind/empty``
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
