import SyntaxTree
import PythonSyntax

/// Calls: summaries of the project's functions and methods, constructors that fill an object's
/// fields, container methods that keep parts apart, and calls whose result cannot carry text.
extension TaintAnalyzer {
    mutating func evaluateCall(_ call: SyntaxNode) -> AbstractValue {
        guard let callee = call.children.first else { return .clean }
        // A slice: an array made for every call visited would be allocated and freed each time.
        let arguments = call.children.dropFirst()
        var receiver: AbstractValue? = nil
        if callee.kind == .attribute, let base = callee.children.first {
            receiver = evaluate(base)
            if let object = receiver, object.taint.awaitsRequestName, let method = callee.text,
                Self.keyedReadMethods.contains(method), let key = arguments.first,
                case .string(let name)? = PyConstant(literal: key)
            {
                // `request.args.get("q")`: the key names the request's value.
                var named = object
                named.taint = namingRequest(object.taint, name)
                receiver = named
            }
        } else if callee.kind != .name {
            // A callee that is itself an expression holds sinks of its own: `(new Function(code))()`,
            // `(0, eval)(code)`, `make(x)(y)`.
            _ = evaluate(callee)
        }
        let values = arguments.map { evaluate($0) }
        var all = Taint.clean
        for value in values { all.formUnion(value.whole) }
        if let hoisting = index.hoisting, callee.kind == .attribute, let method = callee.text, let receiver,
            hoisting.elementCallbackMethods.contains(method)
        {
            callWithElements(call, method: method, receiver: receiver, function: arguments.first)
        }

        if let target = resolve(callee, receiver: receiver) {
            return apply(target, call: call, receiver: receiver, arguments: arguments, values: values)
        }
        // A method call keeps its last segment in the canonical name: one no known call ends
        // with needs no dotted name spelled out (most; the method branch below returns for them).
        let unknownMethod =
            callee.kind == .attribute && receiver != nil && callee.text.map { !Self.knownCallLastSegments.mayContain($0) } == true
        let dotted = unknownMethod ? nil : callee.dottedName.map { index.aliases.canonicalize($0) }
        switch dotted.flatMap(Self.knownCall) {
        case .secretComparison?:
            secretCompared = true
            return .clean
        case .cleanResult?:
            return .clean
        case .socket?:
            // The address family, positional or `family=`: AF_UNIX reaches only this machine.
            let family = arguments.first { $0.kind == .keyword ? $0.text == "family" : true }
            let value = family.map { $0.kind == .keyword ? ($0.children.first ?? $0) : $0 }
            if let name = value?.dottedName, index.aliases.canonicalize(name) == "socket.AF_UNIX" {
                var out = AbstractValue(taint: all)
                out.typeName = Self.unixSocketType
                return out
            }
        case .normalizing?:
            var out = AbstractValue(taint: all)
            out.isNormalizedPath = true
            return out
        case nil:
            break
        }
        if callee.kind == .attribute, let method = callee.text, let base = callee.children.first, var object = receiver {
            if Self.cleanMethodNames.mayContain(method), Self.cleanMethods.contains(method) { return .clean }
            if let result = containerMethod(method, on: &object, base: base, arguments: arguments, values: values) {
                // Only a method that changes the container writes it back: `request.POST.copy()` or
                // `.get()` leaves `request` as it was (storing the part would taint the whole object).
                // A closure, not `map(isImportedName)`: a method reference would copy the analyzer.
                let baseKind = base.kind
                if !Self.readOnlyContainerMethods.contains(method), !Self.isHeaderMap(base),
                    baseKind == .name || baseKind == .attribute || baseKind == .subscript,
                    base.dottedName.map({ isImportedName($0) }) != true
                {
                    updatePart(of: base) { $0 = object }
                }
                return result
            }
            var out = AbstractValue(taint: all.union(object.whole))
            if Self.queryLookupMethods.contains(method) {
                // `Model.objects.filter(code=value).first()`: the rows a lookup selects hold what
                // the database holds, not the value looked up (a `where` text is its own sink).
                var kept = object.whole
                for (argument, value) in zip(arguments, values) where argument.kind != .keyword { kept.formUnion(value.whole) }
                out = AbstractValue(taint: kept)
            }
            if method == "resolve" || method == "absolute" { out.isNormalizedPath = true }
            if let constant = object.constant, case .string(let s) = constant, !all.isTainted {
                out.constant = Self.foldStringMethod(method, s, values)
            }
            return out
        }
        if let dotted {
            switch dotted {
            case "reversed":
                if let elements = values.first?.elements { return AbstractValue(elements: elements.reversed()) }
            case "list", "tuple":
                if let first = values.first, first.elements != nil || values.count == 1 && first.members.isEmpty {
                    return first.elements != nil ? AbstractValue(elements: first.elements!) : AbstractValue(taint: first.whole)
                }
            case "dict":
                var out = values.first ?? AbstractValue()
                for (argument, value) in zip(arguments, values) where argument.kind == .keyword {
                    if let name = argument.text { out.members[PyConstant.string(name).key] = value }
                }
                return out
            case "str", "repr", "format", "bytes", "bytearray":
                if let constant = values.first?.constant, case .string = constant { return values[0] }
            default:
                break
            }
        }
        return AbstractValue(taint: all.union(receiver?.whole ?? .clean))
    }

    /// `xs.forEach(f)`, `xs.map(o.f)`, `p.then(f)` with a function passed by name: `f` is called
    /// with each element of `xs` (with what `p` resolves to), so the call `f(element)` is followed
    /// (its sinks checked, a project function's summary applied) at this call. A callback written
    /// in place is hoisted, and receives the elements where it runs (``execute(block:)``).
    private mutating func callWithElements(_ call: SyntaxNode, method: String, receiver: AbstractValue, function: SyntaxNode?) {
        guard let function, function.kind == .name || function.kind == .attribute, function.dottedName != nil,
            index.hoisting?.isHoistedDefinition(function.text) != true
        else { return }
        let element = method == "then" ? AbstractValue(taint: receiver.whole) : elementValue(of: receiver)
        let saved = state[Self.elementName]
        state[Self.elementName] = element
        let called = SyntaxNode(
            .call, children: [function, SyntaxNode(.name, text: Self.elementName, range: function.range)], range: call.range)
        _ = evaluate(called)
        state[Self.elementName] = saved
    }

    /// The made-up name of the element a callback passed by name receives (a `#` starts no
    /// JavaScript identifier).
    private static let elementName = "#element"

    /// Whether the root of a dotted name is a module or name bound by an import (`requests.get`).
    func isImportedName(_ dotted: String) -> Bool {
        // By bytes (see ``ImportAliases/canonicalize(_:)``): this runs for every method call.
        let head = dotted.utf8.firstIndex(of: UInt8(ascii: ".")).map { String(dotted[..<$0]) } ?? dotted
        return isImportedRoot(head)
    }

    /// Whether a name is a module or name bound by an import, not a local variable.
    func isImportedRoot(_ name: String) -> Bool {
        state[name] == nil && (index.aliases.resolve(name) != nil || model.importedModules.contains(name))
    }

    /// Calls whose result holds no attacker text: numbers, booleans, type checks, UUIDs.
    static let cleanResults: Set<String> = [
        "len", "bool", "int", "float", "complex", "isinstance", "issubclass", "hash", "id", "type", "ord",
        "callable", "hasattr", "abs", "round", "uuid.UUID", "uuid.uuid4", "uuid.uuid1", "os.path.exists",
        "os.path.isfile", "os.path.isdir", "os.path.getsize", "os.path.isabs", "time.time", "datetime.datetime.now",
        "math.floor", "math.ceil", "decimal.Decimal", "fractions.Fraction", "ipaddress.ip_address",
        "hmac.compare_digest", "secrets.compare_digest",
    ]

    /// What the analysis knows of a call by its canonical name, beyond what flows through it.
    enum KnownCall {
        case secretComparison, cleanResult, socket, normalizing
    }

    /// The known call `dotted` is, if any. (A filter first: nearly every call is none, and this
    /// runs for every call the analyses visit.)
    static func knownCall(_ dotted: String) -> KnownCall? {
        knownCallNames.mayContain(dotted) ? knownCalls[dotted] : nil
    }

    private static let knownCalls: [String: KnownCall] = {
        var table: [String: KnownCall] = [:]
        for name in cleanResults { table[name] = .cleanResult }
        // Also clean results; comparing a secret is what matters.
        for name in secretComparisons { table[name] = .secretComparison }
        for name in normalizingCalls { table[name] = .normalizing }
        for name in ["socket.socket", "socket.socketpair"] { table[name] = .socket }
        return table
    }()

    private static let knownCallNames = NameFilter(knownCalls.keys)

    /// The last segments of the known calls (`compare_digest`, `realpath`).
    private static let knownCallLastSegments = NameFilter(knownCalls.keys.map(FileIndex.lastSegment))

    /// Methods whose result holds no attacker text (the receiver's text does not flow out).
    static let cleanMethods: Set<String> = [
        "isdigit", "isalpha", "isalnum", "isnumeric", "isdecimal", "isidentifier", "isspace", "islower",
        "isupper", "istitle", "isascii", "startswith", "endswith", "count", "find", "rfind", "index", "rindex",
        "__len__", "exists", "is_file", "is_dir", "is_absolute", "is_relative_to", "isoformat", "timestamp",
        "hexdigest", "digest",
    ]

    /// ``cleanMethods``, for rejecting most methods without a lookup.
    private static let cleanMethodNames = NameFilter(cleanMethods)

    /// Constant-time comparisons of a presented token with a secret.
    static let secretComparisons: Set<String> = ["hmac.compare_digest", "secrets.compare_digest"]

    /// The type the analysis gives a Unix-domain socket (`socket.socket(socket.AF_UNIX, ...)`).
    static let unixSocketType = "socket.socket(AF_UNIX)"

    /// ORM lookups (Django, SQLAlchemy, Peewee, Tortoise): their keyword arguments choose rows.
    static let queryLookupMethods: Set<String> = ["filter", "exclude", "filter_by", "get_or_none", "get_or_404", "first_or_404"]

    /// Container methods that read without changing the container.
    static let readOnlyContainerMethods: Set<String> = ["get", "copy"]
    /// Methods that read one value of a request's part by its key (`request.args.get("q")`,
    /// `getlist`, aiohttp's `getone`/`getall`, `cgi`'s `getfirst`/`getvalue`, Express's
    /// `req.param("q")`).
    static let keyedReadMethods: Set<String> = ["get", "getlist", "getone", "getall", "get_all", "getfirst", "getvalue", "param"]

    /// Path normalisation: a prefix check on the result then confines it.
    /// Node's `path.join`, `path.resolve` and `path.normalize` remove `..` segments as Python's
    /// `normpath` does (Python's `os.path.join` does not, and is not here).
    static let normalizingCalls: Set<String> = [
        "os.path.realpath", "os.path.abspath", "os.path.normpath", "posixpath.realpath", "posixpath.abspath",
        "posixpath.normpath", "path.join", "path.resolve", "path.normalize", "path.posix.join", "path.posix.resolve",
        "path.posix.normalize",
    ]

    /// `"a,b".split(",")` and friends on constants, so that `x = "ls".upper()` stays a constant.
    static func foldStringMethod(_ method: String, _ s: String, _ arguments: [AbstractValue]) -> PyConstant? {
        switch method {
        case "upper": return .string(s.uppercased())
        case "lower": return .string(s.lowercased())
        case "strip" where arguments.isEmpty: return .string(s.trimmingCharacters(in: .whitespacesAndNewlines))
        default: return nil
        }
    }

    /// List and dict methods: element-precise when the shape is known. Returns the call's result,
    /// or nil when `method` is not a container method.
    private mutating func containerMethod(
        _ method: String, on object: inout AbstractValue, base: SyntaxNode, arguments: ArraySlice<SyntaxNode>, values: [AbstractValue]
    ) -> AbstractValue? {
        let first = values.first
        let key = arguments.first.flatMap { PyConstant(literal: $0) } ?? first?.constant
        switch method {
        case "append", "appendleft", "add", "put":
            guard let first else { return nil }
            object.append(first)
            return .clean
        case "insert" where values.count == 2:
            if object.elements != nil, case .integer(let i)? = key, object.elements!.count < AbstractValue.maximumParts {
                let position = max(0, min(i < 0 ? object.elements!.count + i : i, object.elements!.count))
                object.elements!.insert(values[1], at: position)
            } else {
                object.absorb(values[1].whole)
            }
            return .clean
        case "extend":
            guard let first else { return nil }
            if object.elements != nil, let parts = first.elements {
                for part in parts { object.append(part) }
            } else {
                object.absorb(elementValue(of: first).whole)
            }
            return .clean
        case "remove", "discard", "sort", "clear":
            if method == "clear" { object = .clean } else if object.elements != nil { object = object.collapsed }
            return .clean
        case "pop":
            if var elements = object.elements, !elements.isEmpty {
                var position = elements.count - 1
                if let key {
                    guard case .integer(let i) = key else { return AbstractValue(taint: object.whole) }
                    position = i < 0 ? elements.count + i : i
                }
                guard elements.indices.contains(position) else { return AbstractValue(taint: object.whole) }
                let removed = elements.remove(at: position)
                object.elements = elements
                return removed
            }
            if let key, object.elements == nil {
                let part = object.part(at: key)
                object.members[key.key] = nil
                return values.count > 1 ? part.joined(with: values[1]) : part
            }
            return AbstractValue(taint: object.whole)
        case "get":
            guard object.elements == nil else { return nil }
            if let key {
                let part = object.part(at: key)
                return values.count > 1 ? part.joined(with: values[1]) : part
            }
            return AbstractValue(taint: object.whole.union(values.dropFirst().first?.whole ?? .clean))
        case "setdefault" where values.count == 2:
            guard let key else {
                object.absorb(values[1].whole)
                return AbstractValue(taint: object.whole)
            }
            if object.members[key.key] == nil { object.members[key.key] = values[1] }
            return object.part(at: key)
        case "update":
            for (argument, value) in zip(arguments, values) {
                if argument.kind == .keyword, let name = argument.text {
                    object.members[PyConstant.string(name).key] = value
                } else if !value.members.isEmpty, value.elements == nil {
                    for (k, v) in value.members { object.members[k] = v }
                    object.taint.formUnion(value.taint)
                } else {
                    object.absorb(value.whole)
                }
            }
            return .clean
        case "copy":
            return object
        default:
            return nil
        }
    }
}
