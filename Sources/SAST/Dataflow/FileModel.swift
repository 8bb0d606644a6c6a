import PythonSyntax

/// The definitions of one file the dataflow analysis resolves calls to: functions (by name),
/// classes with their methods, bases and constant attributes, and module-level constants.
/// Built once per file and shared by every taint rule.
struct FileModel: Sendable {
    /// A function or method: `key` is `name` or `Class.name`.
    struct Function: Sendable {
        var key: String
        var node: SyntaxNode
        var className: String?
        /// An instance or class method (its first parameter is the receiver).
        var isMethod: Bool
        var isClassMethod: Bool
        /// Its position in ``FileModel/functions``.
        var index: Int
    }

    /// A class defined in the file.
    struct ClassInfo: Sendable {
        var name: String
        var bases: [String]
        /// Class-body assignments of literals (`ALLOWED = {"a", "b"}`), clean and never symbolic.
        var constants: [String: AbstractValue]
    }

    private(set) var functions: [Function] = []
    private(set) var functionsByKey: [String: Function] = [:]
    private(set) var classes: [String: ClassInfo] = [:]
    /// Module-level names assigned exactly once, to a literal (`DEBUG = False`).
    private(set) var constants: [String: PyConstant] = [:]
    /// Names bound by `import x` at any level (`os`, `requests`).
    private(set) var importedModules: Set<String> = []
    /// Names bound by relative imports: `clean` → `.utils.clean` (resolved against the package later).
    private(set) var relativeImports: [String: String] = [:]
    /// The functions a call by each name may run: a function by its name, an `__init__` also by
    /// the classes constructed with it (``constructors(of:)``).
    private(set) var functionsByCallName: [String: [Function]] = [:]
    /// Each class's methods by name, inherited ones included (see ``method(_:of:)``): the
    /// analyses resolve a method call at every visit, so the bases are searched once, here.
    private var methodsByClass: [String: [String: Function]] = [:]
    /// Each class's constants by name, inherited ones included (see ``classConstant(_:of:)``).
    private var constantsByClass: [String: [String: AbstractValue]] = [:]
    /// The classes whose construction runs each `__init__` (by its key; see ``constructors(of:)``).
    private var constructorsByInitializer: [String: [String]] = [:]

    init(root: SyntaxNode) {
        var literal: [String: PyConstant] = [:]
        collect(root.children, className: nil)
        for statement in root.children where statement.kind == .assign || statement.kind == .annAssign {
            let targets = statement.kind == .assign ? Array(statement.children.dropLast()) : [statement.children[0]]
            for target in targets where target.kind == .name {
                guard let name = target.text else { continue }
                if let value = statement.children.last, let constant = PyConstant(literal: value) { literal[name] = constant }
            }
        }
        // Every binding of a module-level name, nested ones included (`FLAG = True` inside the
        // `try` of an optional import): a name bound more than once is no constant.
        let assignments = Self.moduleBindings(root)
        var rebound: Set<String> = []
        var imported: Set<String> = []
        var relative: [String: String] = [:]
        root.walk { node in
            if node.kind == .global { for name in node.children { if let text = name.text { rebound.insert(text) } } }
            if node.kind == .importFrom, let from = node.text, from.hasPrefix(".") {
                for alias in node.children {
                    guard let name = alias.text, name != "*" else { continue }
                    let separator = from.hasSuffix(".") ? "" : "."
                    relative[alias.children.first?.text ?? name] = from + separator + name
                }
            }
            if node.kind == .import {
                for alias in node.children {
                    if let local = alias.children.first?.text ?? alias.text?.split(separator: ".").first.map(String.init) {
                        imported.insert(local)
                    }
                }
            }
            return true
        }
        importedModules = imported
        relativeImports = relative
        resolveInheritance()
        for function in functions {
            for name in callNames(of: function) { functionsByCallName[name, default: []].append(function) }
        }
        for (name, constant) in literal where assignments[name] == 1 && !rebound.contains(name) {
            constants[name] = constant
        }
    }

    /// How many times each name is bound in the module's own scope: assignments, loop and `with`
    /// targets, handlers, imports, definitions, walruses, deletions and match captures, at any
    /// depth outside function and class bodies. A `*` import may bind any name (key `*`).
    static func moduleBindings(_ root: SyntaxNode) -> [String: Int] {
        var counts: [String: Int] = [:]
        func bind(_ target: SyntaxNode) {
            switch target.kind {
            case .name: if let name = target.text { counts[name, default: 0] += 1 }
            case .tuple, .list, .starred: for child in target.children { bind(child) }
            default: break
            }
        }
        root.walk { node in
            switch node.kind {
            case .functionDef, .asyncFunctionDef, .classDef:
                if let name = node.text { counts[name, default: 0] += 1 }
                return false
            case .lambda:
                return false
            case .assign:
                for target in node.children.dropLast() { bind(target) }
            case .augAssign, .annAssign, .for, .asyncFor, .namedExpr:
                if let target = node.children.first { bind(target) }
            case .withItem where node.children.count == 2:
                bind(node.children[1])
            case .delete:
                for target in node.children { bind(target) }
            case .exceptHandler, .matchAs, .matchStar:
                if let name = node.text { counts[name, default: 0] += 1 }
            case .import:
                for alias in node.children {
                    if let local = alias.children.first?.text ?? alias.text?.split(separator: ".").first.map(String.init) {
                        counts[local, default: 0] += 1
                    }
                }
            case .importFrom:
                for alias in node.children {
                    if let local = alias.children.first?.text ?? alias.text { counts[local, default: 0] += 1 }
                }
            default:
                break
            }
            return true
        }
        if counts["*"] != nil { return counts.mapValues { _ in 2 }.merging(["*": 2]) { $1 } }
        return counts
    }

    private mutating func collect(_ statements: [SyntaxNode], className: String?) {
        for statement in statements {
            switch statement.kind {
            case .functionDef, .asyncFunctionDef:
                guard let name = statement.text else { continue }
                let decorators = statement.children.first?.children.compactMap { $0.children.first?.dottedName } ?? []
                let isStatic = decorators.contains("staticmethod")
                let isClassMethod = decorators.contains("classmethod")
                let key = className.map { "\($0).\(name)" } ?? name
                let function = Function(
                    key: key, node: statement, className: className, isMethod: className != nil && !isStatic,
                    isClassMethod: isClassMethod, index: functions.count)
                functions.append(function)
                functionsByKey[key] = function
                // Nested helpers resolve by their bare name.
                if let body = statement.children.last { collect(body.children, className: nil) }
            case .classDef:
                guard let name = statement.text else { continue }
                var info = ClassInfo(name: name, bases: [], constants: [:])
                if statement.children.count > 2 {
                    info.bases = statement.children[2].children.compactMap(\.dottedName)
                }
                if let body = statement.children.last {
                    for member in body.children where member.kind == .assign {
                        guard let value = member.children.last, Self.isLiteral(value) else { continue }
                        for target in member.children.dropLast() where target.kind == .name {
                            if let text = target.text { info.constants[text] = AbstractValue.literal(value) }
                        }
                    }
                    classes[name] = info
                    collect(body.children, className: name)
                } else {
                    classes[name] = info
                }
            default:
                for child in statement.children where child.kind == .block { collect(child.children, className: className) }
                if statement.kind == .try || statement.kind == .tryStar {
                    for handler in statement.children where handler.kind == .exceptHandler {
                        if let block = handler.children.last { collect(block.children, className: className) }
                    }
                }
            }
        }
    }

    /// A literal display: constants, and lists/tuples/sets/dicts of them.
    static func isLiteral(_ node: SyntaxNode) -> Bool {
        switch node.kind {
        case .string, .bytes, .integer, .float, .true, .false, .none: return true
        case .list, .tuple, .set: return node.children.allSatisfy(isLiteral)
        case .dict: return node.children.allSatisfy { $0.kind == .keyValue && $0.children.allSatisfy(isLiteral) }
        case .joinedStr: return node.children.allSatisfy { $0.kind == .string }
        default: return false
        }
    }

    /// The method `name` of `className` or of the nearest base defined in this file.
    func method(_ name: String, of className: String) -> Function? {
        methodsByClass[className]?[name]
    }

    /// Whether `self.name(...)` written in a method of `className` runs a method this file defines
    /// for the instance: the class's own or an inherited one, or an override in a subclass defined
    /// here (a base calling a hook its subclasses implement).
    func definesMethod(_ name: String, forSelfOf className: String) -> Bool {
        if methodsByClass[className]?[name] != nil { return true }
        return classes.keys.contains { other in
            other != className && methodsByClass[other]?[name] != nil && lineage(of: other).contains(className)
        }
    }

    /// The bases of `className` and of its bases in this file that this file does not define
    /// (imported, or unknown), as written (`generic.ObjectEditView`), nearest first: where an
    /// inherited method not found here may be defined.
    func foreignBases(of className: String) -> [String] {
        var out: [String] = []
        for current in lineage(of: className) {
            for base in classes[current]?.bases ?? [] {
                let name = base.split(separator: ".").last.map(String.init) ?? base
                if classes[name] == nil, !out.contains(base) { out.append(base) }
            }
        }
        return out
    }

    /// `className` and its bases defined in this file, nearest first (breadth-first, each once;
    /// a base is named by the last segment of its dotted name).
    private func lineage(of className: String) -> [String] {
        var seen: Set<String> = []
        var order: [String] = []
        var queue = [className]
        var next = 0
        while next < queue.count {
            let current = queue[next]
            next += 1
            guard seen.insert(current).inserted else { continue }
            order.append(current)
            queue += classes[current]?.bases.compactMap { $0.split(separator: ".").last.map(String.init) } ?? []
        }
        return order
    }

    /// Fills the tables of inherited methods, constants and constructors: each class takes what
    /// the nearest class of its lineage defines.
    private mutating func resolveInheritance() {
        var ownMethods: [String: [String: Function]] = [:]
        for (key, function) in functionsByKey {
            // `Class.name`: a method (class and function names hold no dot).
            guard let dot = key.firstIndex(of: ".") else { continue }
            ownMethods[String(key[..<dot]), default: [:]][String(key[key.index(after: dot)...])] = function
        }
        for className in classes.keys {
            var methods: [String: Function] = [:]
            var constants: [String: AbstractValue] = [:]
            for current in lineage(of: className) {
                methods.merge(ownMethods[current] ?? [:]) { nearest, _ in nearest }
                constants.merge(classes[current]?.constants ?? [:]) { nearest, _ in nearest }
            }
            methodsByClass[className] = methods
            constantsByClass[className] = constants
            if let initializer = methods["__init__"] { constructorsByInitializer[initializer.key, default: []].append(className) }
        }
    }

    /// The names a call may use to run `function`: its own, and for an `__init__` the classes
    /// constructed with it.
    func callNames(of function: Function) -> Set<String> {
        var names = Set(constructors(of: function))
        if let name = function.node.text { names.insert(name) }
        return names
    }

    /// The classes of this file whose construction runs `initializer` (its own, and subclasses'
    /// that inherit it).
    func constructors(of initializer: Function) -> [String] {
        guard initializer.node.text == "__init__", initializer.className != nil else { return [] }
        return constructorsByInitializer[initializer.key] ?? []
    }

    /// A class constant of `className` (or a base), when no method assigns the attribute.
    func classConstant(_ name: String, of className: String) -> AbstractValue? {
        constantsByClass[className]?[name]
    }

    /// Whether a summary of `function` can be used: the file calls it (by name or as a method).
    func isCalled(_ function: Function, _ index: FileIndex) -> Bool {
        guard let name = function.node.text else { return false }
        if name == "__init__", let className = function.className {
            // `Job(...)` runs the `__init__` that `Job` inherits.
            return constructors(of: function).contains { index.callsByName[$0] != nil } || index.callsByName[className] != nil
        }
        return index.callsByName[name] != nil
    }
}

extension AbstractValue {
    /// The value of a literal display: constants carry their value, lists and tuples their shape.
    static func literal(_ node: SyntaxNode) -> AbstractValue {
        if let constant = PyConstant(literal: node) { return AbstractValue(constant: constant) }
        switch node.kind {
        case .list, .tuple: return AbstractValue(elements: node.children.map(literal))
        default: return .clean
        }
    }
}
