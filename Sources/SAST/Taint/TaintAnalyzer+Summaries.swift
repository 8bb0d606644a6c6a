import PythonSyntax

/// A call the analysis resolved to a function it summarised.
struct CallTarget {
    var summary: FunctionSummary
    /// The name shown in messages (`helper`, `Cmd.run`, `helpers.utils.clean`).
    var name: String
    /// 1 when the receiver (or the new object) is the callee's first parameter.
    var shift: Int
    /// The file the callee is in, when it is another module of the project.
    var file: String?
    /// A class's constructor: the result is a new object whose fields `__init__` wrote.
    var constructs: String?
}

extension TaintAnalyzer {
    /// The function a call runs, when the analysis has its summary: a function or class of this
    /// file, a method through `self`/`cls`, a local object or a class name, or an imported
    /// function of another scanned module.
    mutating func resolve(_ callee: SyntaxNode, receiver: AbstractValue?) -> CallTarget? {
        switch callee.kind {
        case .name:
            guard let name = callee.text, state[name] == nil || model.classes[name] != nil else { return nil }
            if let function = model.functionsByKey[name] {
                summariesRead.insert(function.key)
                if let summary = summaries[function.key] { return CallTarget(summary: summary, name: name, shift: 0) }
            }
            if model.classes[name] != nil {
                let initializer = model.method("__init__", of: name)
                if let initializer { summariesRead.insert(initializer.key) }
                let summary = initializer.flatMap { summaries[$0.key] } ?? FunctionSummary(parameters: ["self"], isMethod: true)
                return CallTarget(summary: summary, name: name, shift: 1, constructs: name)
            }
            if let dotted = index.aliases.resolve(name) ?? model.relativeImports[name] {
                // A callee in a language's own namespace is shown as written: its module name is the lowering's.
                let namespaced = project.map { !$0.conventions.namespace.isEmpty } ?? false
                return projectTarget(project?.called(dotted) ?? dotted, shown: namespaced ? name : nil)
            }
            return nil
        case .attribute:
            guard let method = callee.text, let base = callee.children.first else { return nil }
            var className: String? = nil
            var throughClass = false
            if base.kind == .name, base.text == receiverName, let current = currentClass {
                className = current
            } else if let typeName = receiver?.typeName {
                className = typeName
            } else if base.kind == .name, let name = base.text, state[name] == nil, model.classes[name] != nil {
                className = name
                throughClass = true
            }
            if let className {
                guard let function = model.method(method, of: className) else { return inheritedTarget(method, of: className) }
                summariesRead.insert(function.key)
                guard let summary = summaries[function.key] else { return nil }
                let shift = throughClass ? (function.isClassMethod ? 1 : 0) : (function.isMethod ? 1 : 0)
                return CallTarget(summary: summary, name: function.key, shift: shift)
            }
            // The root first: the dotted name is spelled out only for an imported one.
            guard let root = callee.dottedRoot else { return nil }
            if isImportedRoot(root), let dotted = callee.dottedName {
                return projectTarget(index.aliases.canonicalize(dotted))
            }
            if let module = relativeModuleRoot(root), let dotted = callee.dottedName {
                return projectTarget(module + dotted.dropFirst(root.count), shown: dotted)
            }
            return nil
        default:
            return nil
        }
    }

    /// A method a class of this file inherits from a class another module of the project defines
    /// (`class DeviceView(ReturnURLMixin, View)` calling `self.get_return_url(...)`).
    private func inheritedTarget(_ method: String, of className: String) -> CallTarget? {
        for base in model.foreignBases(of: className) {
            let parts = base.split(separator: ".", maxSplits: 1).map(String.init)
            let root = parts[0]
            let dotted: String
            if state[root] == nil, let imported = index.aliases.resolve(root) ?? model.relativeImports[root] {
                dotted = parts.count == 2 ? imported + "." + parts[1] : imported
            } else if isImportedRoot(root) {
                dotted = index.aliases.canonicalize(base)
            } else {
                continue
            }
            if let target = projectTarget(dotted + "." + method) { return target }
        }
        return nil
    }

    /// The relative module (or its member) `root` is bound to, for a call through it
    /// (`const db = require('./db'); db.find(x)`: `db` is `.db`), in a JavaScript file: every
    /// project module JavaScript imports is relative. Python's `from . import m; m.f()` is left
    /// as it was (unfollowed) until that change is judged on Python's corpora.
    func relativeModuleRoot(_ root: String) -> String? {
        guard project?.conventions.followsCallsThroughRelativeModules == true, state[root] == nil else { return nil }
        return model.relativeImports[root]
    }

    /// The summary of `dotted`, named in messages as `shown` (as written) or `dotted` itself.
    private func projectTarget(_ dotted: String, shown: String? = nil) -> CallTarget? {
        guard let project, let found = project.summary(ruleId: ruleId, function: dotted) else { return nil }
        return CallTarget(
            summary: found.summary, name: shown ?? dotted, shift: found.summary.isMethod ? 1 : 0, file: found.file,
            constructs: found.constructs)
    }

    /// The caller's side of a summary: what the call returns, and the sinks inside the callee
    /// that the arguments reach.
    mutating func apply(
        _ target: CallTarget, call: SyntaxNode, receiver: AbstractValue?, arguments: ArraySlice<SyntaxNode>, values: [AbstractValue]
    ) -> AbstractValue {
        let summary = target.summary
        var bound: [Int: AbstractValue] = [:]
        if target.shift == 1 { bound[0] = target.constructs == nil ? (receiver ?? .clean) : .clean }
        var position = target.shift
        for (argument, value) in zip(arguments, values) {
            switch argument.kind {
            case .keyword:
                if let name = argument.text, let i = summary.parameters.firstIndex(of: name) { bound[i] = value }
            case .starred, .doubleStarred:
                continue
            default:
                if position < summary.parameters.count { bound[position] = value }
                position += 1
            }
        }
        for parameter in summary.sanitizes { sanitizedParameters.formUnion(bound[parameter]?.whole.parameters ?? []) }
        let callHop = FlowHop(range: call.range, note: "calls " + target.name + "()")
        var result = Self.located(Self.localizingSockets(summary.returnsSource, bound), in: target.file).through(callHop)
        // In a fixed order (a union keeps the first witnesses it meets; flows are reported in
        // the order found): a dictionary's order changes from run to run.
        for (path, hops) in summary.returns.sorted(by: { $0.key < $1.key }) {
            result.formUnion(Self.continued(taint(of: path, in: bound), callHop, hops, target.file))
        }
        for (path, sink) in summary.sinks.sorted(by: { $0.key < $1.key }) {
            var hit = sink.hit
            if hit.file == nil { hit.file = target.file }
            let reaching = Self.continued(taint(of: path, in: bound), callHop, sink.hops, target.file)
            reach(hit, with: reaching, via: target.name, at: call.range)
        }
        if let className = target.constructs {
            var object = AbstractValue()
            object.typeName = target.file == nil ? className : nil
            for (field, parameters) in summary.fieldWrites {
                var taint = Taint.clean
                for parameter in parameters.sorted() { taint.formUnion(bound[parameter]?.whole ?? .clean) }
                object.members["." + field] = AbstractValue(taint: taint)
            }
            return object
        }
        return AbstractValue(taint: result)
    }

    /// The caller's value for a summary's parameter (or a field of it).
    private func taint(of path: ParameterPath, in bound: [Int: AbstractValue]) -> Taint {
        guard let value = bound[path.parameter] else { return .clean }
        guard let field = path.field else { return value.whole }
        if let member = value.members["." + field] { return member.whole }
        // Our own receiver passed on (`self.helper()`): its field as this method sees it.
        if value.taint.origins.contains(where: { $0.parameter == 0 && $0.field == nil }), let className = currentClass {
            return receiverField(field, className: className).whole
        }
        return value.taint
    }

    /// A source the callee read from a socket parameter is local when the caller passes a
    /// Unix-domain socket.
    private static func localizingSockets(_ taint: Taint, _ bound: [Int: AbstractValue]) -> Taint {
        guard taint.origins.contains(where: { $0.socketParameter != nil }) else { return taint }
        var out = Taint.clean
        for var origin in taint.origins {
            if let parameter = origin.socketParameter, bound[parameter]?.typeName == unixSocketType { origin.isLocal = true }
            out.formUnion(Taint(origin))
        }
        return out
    }

    private static func continued(_ taint: Taint, _ callHop: FlowHop, _ inside: [FlowHop], _ file: String?) -> Taint {
        var out = taint.through(callHop)
        for hop in inside {
            var located = hop
            if located.file == nil { located.file = file }
            out = out.through(located)
        }
        return out
    }

    private static func located(_ taint: Taint, in file: String?) -> Taint {
        guard let file else { return taint }
        var out = Taint.clean
        for var origin in taint.origins {
            origin.hops = origin.hops.map { hop in
                var copy = hop
                if copy.file == nil { copy.file = file }
                return copy
            }
            out.formUnion(Taint(origin))
        }
        return out
    }
}

extension SyntaxNode {
    /// The first name of the dotted name the node is (`a` of `a.b.c`): nil exactly when
    /// ``dottedName`` is, without spelling the whole name out.
    var dottedRoot: String? {
        var node = self
        while node.kind == .attribute {
            guard node.text != nil, let base = node.children.first else { return nil }
            node = base
        }
        return node.kind == .name ? node.text : nil
    }
}
