/// Typed views of the commonest layouts, so that code reads `node.call?.callee` instead of
/// `children[0]`: a view names each position of its kind's layout (``SyntaxKind``) once, here.
extension SyntaxNode {
    /// A call (`f(a, k=b)`) or an instantiation (`new C(a)`): the callee and the arguments.
    public struct CallView: Sendable {
        /// The call node itself.
        public let node: SyntaxNode
        /// What is called.
        public var callee: SyntaxNode { node.children[0] }
        /// The arguments in source order: expressions, ``SyntaxKind/keyword``,
        /// ``SyntaxKind/starred`` and ``SyntaxKind/doubleStarred``.
        public var arguments: ArraySlice<SyntaxNode> { node.children.dropFirst() }
        /// The arguments written by position (not `k=v`, `*a` or `**m`).
        public var positionalArguments: [SyntaxNode] {
            arguments.filter { $0.kind != .keyword && $0.kind != .starred && $0.kind != .doubleStarred }
        }
        /// The value of keyword argument `name` (`shell` in `run(c, shell=True)`), nil without one.
        public func keyword(_ name: String) -> SyntaxNode? {
            arguments.first { $0.kind == .keyword && $0.text == name }?.children.first
        }
    }

    /// This node as a call or instantiation; nil for other kinds (or a malformed node without a callee).
    public var call: CallView? {
        (kind == .call || kind == .new) && !children.isEmpty ? CallView(node: self) : nil
    }

    /// A function definition of any kind (`def`, `async def`, an arrow, a method, a constructor):
    /// the layout `[decorators, typeParams, parameters, returns|empty, block]`.
    public struct FunctionDefinitionView: Sendable {
        /// The definition node itself.
        public let node: SyntaxNode
        /// The name it defines (nil for an anonymous arrow).
        public var name: String? { node.text }
        /// Whether it is `async def` (an async arrow or method lowers to that kind too).
        public var isAsync: Bool { node.kind == .asyncFunctionDef }
        /// The ``SyntaxKind/decorators`` node.
        public var decorators: SyntaxNode { node.children[0] }
        /// The ``SyntaxKind/parameters`` node.
        public var parameters: SyntaxNode { node.children[2] }
        /// The names of the parameters, in order (`*args`' and `**kwargs`' too).
        public var parameterNames: [String] {
            parameters.children.compactMap {
                $0.kind == .parameter || $0.kind == .varArgs || $0.kind == .kwArgs ? $0.text : nil
            }
        }
        /// The return annotation, nil when absent.
        public var returns: SyntaxNode? { node.children[3].isEmpty ? nil : node.children[3] }
        /// The body ``SyntaxKind/block``.
        public var body: SyntaxNode { node.children[4] }
    }

    /// The kinds a ``FunctionDefinitionView`` reads.
    public static let functionDefinitionKinds: Set<SyntaxKind> = [
        .functionDef, .asyncFunctionDef, .arrowFunction, .method, .constructor,
    ]

    /// This node as a function definition; nil for other kinds (or a malformed node).
    public var functionDefinition: FunctionDefinitionView? {
        Self.functionDefinitionKinds.contains(kind) && children.count == 5 ? FunctionDefinitionView(node: self) : nil
    }

    /// An assignment (`a = b = v`, `a += v`, `a: T = v`): its targets and its value.
    public struct AssignmentView: Sendable {
        /// The assignment node itself.
        public let node: SyntaxNode
        /// What is assigned to: every target of `a = b = v`; the one of `a += v` and `a: T = v`.
        public var targets: ArraySlice<SyntaxNode> {
            node.kind == .assign ? node.children.dropLast() : node.children.prefix(1)
        }
        /// The value assigned; nil for an annotation without one (`a: int`).
        public var value: SyntaxNode? {
            switch node.kind {
            case .annAssign: return node.children[2].isEmpty ? nil : node.children[2]
            case .augAssign: return node.children[1]
            default: return node.children.last
            }
        }
        /// The operator of an augmented assignment (`+=`); nil for the others.
        public var augmentedOperator: String? { node.kind == .augAssign ? node.text : nil }
    }

    /// This node as an assignment; nil for other kinds (or a malformed node).
    public var assignment: AssignmentView? {
        switch kind {
        case .assign: return children.count >= 2 ? AssignmentView(node: self) : nil
        case .augAssign: return children.count == 2 ? AssignmentView(node: self) : nil
        case .annAssign: return children.count == 3 ? AssignmentView(node: self) : nil
        default: return nil
        }
    }
}
