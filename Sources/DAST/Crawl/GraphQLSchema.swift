import Documents

/// The operations of a GraphQL API, from its introspection answer: every query and mutation
/// field whose arguments can all be given a scalar value, as a request that passes those values
/// as variables (the insertion points), selecting a few scalar fields of what it returns.
struct GraphQLSchema: Sendable {
    /// One field of the query or mutation type, ready to send.
    struct Operation: Sendable, Hashable {
        /// `query` or `mutation`.
        var kind: String
        /// The field's name.
        var field: String
        /// The document, an anonymous operation (servers may allow only known names): `query ($field_a: String!) { field(a: $field_a) { id title } }`.
        var document: String
        /// The variables' example values, an object in argument order.
        var variables: DocumentNode
    }

    /// The standard introspection query, cut to what operations need (four levels of type wrappers).
    static let introspection = """
        query SentinelIntrospection { __schema { queryType { name } mutationType { name } types { kind name \
        enumValues { name } fields { name args { name type { ...T } } type { ...T } } } } } \
        fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }
        """

    /// The most operations taken from one schema.
    static let maxOperations = 200
    /// Mutations whose names say they destroy: never sent, whatever their arguments.
    static let destructiveVerbs = ["delete", "remove", "destroy", "drop", "purge", "clear", "reset", "wipe", "truncate"]

    /// The operations, queries first.
    let operations: [Operation]

    /// The schema in an introspection answer (`{"data": {"__schema": …}}`); nil when it is not one.
    init?(answer: DocumentNode) {
        guard let schema = answer["data"]?["__schema"], let types = schema["types"]?.elements else { return nil }
        var byName: [String: DocumentNode] = [:]
        for type in types.prefix(5000) {
            if let name = type["name"]?.string { byName[name] = type }
        }
        var operations: [Operation] = []
        for (kind, root) in [("query", schema["queryType"]), ("mutation", schema["mutationType"])] {
            guard let name = root?["name"]?.string, let fields = byName[name]?["fields"]?.elements else { continue }
            for field in fields {
                guard operations.count < Self.maxOperations,
                    let operation = Self.operation(kind: kind, field: field, types: byName)
                else { continue }
                operations.append(operation)
            }
        }
        self.operations = operations
    }

    /// The field as a request, or nil: no argument to inject into, an argument that needs an
    /// input object, or a mutation named for destruction.
    private static func operation(kind: String, field: DocumentNode, types: [String: DocumentNode]) -> Operation? {
        guard let name = field["name"]?.string, !name.hasPrefix("__"), isName(name) else { return nil }
        if kind == "mutation", destructiveVerbs.contains(where: { name.lowercased().hasPrefix($0) }) { return nil }
        var declarations: [String] = []
        var arguments: [String] = []
        var variables: [(String, DocumentNode.Value)] = []
        for argument in field["args"]?.elements ?? [] {
            guard let argumentName = argument["name"]?.string, isName(argumentName), let type = argument["type"] else {
                return nil
            }
            let (baseKind, baseName) = base(of: type)
            let required = type["kind"]?.string == "NON_NULL"
            guard let example = example(kind: baseKind, name: baseName, types: types) else {
                if required { return nil }
                continue
            }
            // Named after the field and argument: reports say `variables.pastes_filter`.
            let variable = "\(name)_\(argumentName)"
            declarations.append("$\(variable): \(signature(of: type))")
            arguments.append("\(argumentName): $\(variable)")
            variables.append((variable, example))
        }
        // Only strings carry a payload (GraphQL refuses a string for an Int).
        guard variables.contains(where: { if case .string = $0.1 { true } else { false } }) else { return nil }
        let selection = selectionSet(of: field["type"], types: types)
        let document =
            "\(kind) (\(declarations.joined(separator: ", "))) { \(name)(\(arguments.joined(separator: ", ")))\(selection) }"
        return Operation(kind: kind, field: name, document: document, variables: DocumentNode.object(variables))
    }

    /// `{ a b c }` of up to eight scalar fields without required arguments, `{ __typename }` for
    /// an object without one, nothing for a scalar.
    private static func selectionSet(of type: DocumentNode?, types: [String: DocumentNode]) -> String {
        guard let type else { return "" }
        let (kind, name) = base(of: type)
        switch kind {
        case "SCALAR", "ENUM": return ""
        case "OBJECT":
            let fields = (name.flatMap { types[$0]?["fields"]?.elements } ?? []).filter { field in
                guard let type = field["type"], ["SCALAR", "ENUM"].contains(base(of: type).kind),
                    let name = field["name"]?.string, isName(name)
                else { return false }
                return !(field["args"]?.elements ?? []).contains { $0["type"]?["kind"]?.string == "NON_NULL" }
            }
            let names = fields.prefix(8).compactMap { $0["name"]?.string }
            return " { \(names.isEmpty ? "__typename" : names.joined(separator: " ")) }"
        default: return " { __typename }"
        }
    }

    /// An example value for a scalar or enum argument; nil for input objects and unknown scalars.
    private static func example(kind: String, name: String?, types: [String: DocumentNode]) -> DocumentNode.Value? {
        switch (kind, name) {
        case ("SCALAR", "String"?): return .string("sentinel")
        case ("SCALAR", "ID"?): return .string("1")
        case ("SCALAR", "Int"?): return .integer(1)
        case ("SCALAR", "Float"?): return .double(1.5)
        case ("SCALAR", "Boolean"?): return .bool(true)
        case ("ENUM", let name?): return types[name]?["enumValues"]?.elements.first?["name"]?.string.map { .string($0) }
        default: return nil
        }
    }

    /// The named type under NON_NULL and LIST wrappers.
    private static func base(of type: DocumentNode) -> (kind: String, name: String?) {
        var node = type
        for _ in 0..<8 {
            guard let kind = node["kind"]?.string else { break }
            if kind == "NON_NULL" || kind == "LIST", let inner = node["ofType"] {
                node = inner
                continue
            }
            return (kind, node["name"]?.string)
        }
        return ("", nil)
    }

    /// The type as a variable declaration writes it: `String!`, `[ID]`.
    private static func signature(of type: DocumentNode, depth: Int = 0) -> String {
        guard depth < 8, let kind = type["kind"]?.string else { return "String" }
        switch kind {
        case "NON_NULL": return type["ofType"].map { signature(of: $0, depth: depth + 1) + "!" } ?? "String"
        case "LIST": return "[" + (type["ofType"].map { signature(of: $0, depth: depth + 1) } ?? "String") + "]"
        default:
            guard let name = type["name"]?.string, isName(name) else { return "String" }
            return name
        }
    }

    /// A GraphQL name (`[_A-Za-z][_0-9A-Za-z]*`): a hostile schema cannot write into the document.
    private static func isName(_ text: String) -> Bool {
        guard let first = text.utf8.first, text.utf8.count <= 128 else { return false }
        let letter = { (b: UInt8) in (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 95 }
        return letter(first) && text.utf8.allSatisfy { letter($0) || ($0 >= 48 && $0 <= 57) }
    }
}
