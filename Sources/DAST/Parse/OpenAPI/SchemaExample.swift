import Documents

/// Builds an example value from a JSON Schema (OpenAPI's dialect): the schema's own example
/// wins, then `default`, `enum`'s first value and `const`; otherwise objects get their
/// properties (read-only ones left out of requests), arrays one item, `allOf` is merged,
/// `oneOf`/`anyOf` take the first choice, and scalars get a value of their type and format.
/// `$ref`s are followed with cycle detection; depth and total size are bounded, so a hostile
/// document cannot blow up the example.
struct SchemaExample {
    /// The deepest nesting of schemas (each `$ref` hop counts).
    static let maxDepth = 8
    /// The most values built for one example.
    static let maxNodes = 10_000
    /// The most properties taken from one object schema.
    static let maxProperties = 200

    var references: OpenAPIReferences
    /// Values left to build; the caller passes what the whole document has left.
    private(set) var budget: Int

    init(references: OpenAPIReferences, budget: Int = SchemaExample.maxNodes) {
        self.references = references
        self.budget = min(budget, Self.maxNodes)
    }

    /// An example for `schema`, nil when none can be built (a cycle, an unresolvable `$ref`,
    /// or the limits reached).
    mutating func value(_ schema: DocumentNode, depth: Int = 0, active: Set<String> = []) -> DocumentNode? {
        guard depth <= Self.maxDepth, budget > 0 else { return nil }
        budget -= 1
        if let reference = schema["$ref"]?.string {
            guard !active.contains(reference), let target = references.target(of: reference, line: schema.line) else {
                return nil
            }
            return value(target, depth: depth + 1, active: active.union([reference]))
        }
        if let example = schema["example"] ?? schema["examples"]?.elements.first { return example }
        if let fixed = schema["default"] ?? schema["enum"]?.elements.first ?? schema["const"] { return fixed }
        if let parts = schema["allOf"]?.elements, !parts.isEmpty {
            return merged(schema, parts: parts, depth: depth, active: active)
        }
        for key in ["oneOf", "anyOf"] {
            for choice in schema[key]?.elements ?? [] {
                if let found = value(choice, depth: depth + 1, active: active) { return found }
            }
        }
        switch Self.type(of: schema) {
        case "object": return object(schema, depth: depth, active: active)
        case "array":
            let item = schema["items"].flatMap { value($0, depth: depth + 1, active: active) }
            return Self.node(.array(item.map { [$0] } ?? []))
        case "integer": return Self.node(.integer(SchemaScalars.integer(schema)))
        case "number": return Self.node(.double(SchemaScalars.number(schema)))
        case "boolean": return Self.node(.bool(true))
        case "null": return Self.node(.null)
        default: return Self.node(.string(SchemaScalars.string(schema)))
        }
    }

    /// The schema's type: `type` (the first non-null one of a list), else inferred from its keywords.
    static func type(of schema: DocumentNode) -> String {
        if let type = schema["type"]?.string { return type }
        if let type = schema["type"]?.elements.compactMap(\.string).first(where: { $0 != "null" }) { return type }
        if schema["properties"] != nil || schema["additionalProperties"]?.isObject == true { return "object" }
        if schema["items"] != nil { return "array" }
        return "string"
    }

    private mutating func object(_ schema: DocumentNode, depth: Int, active: Set<String>) -> DocumentNode {
        var members: [DocumentMember] = []
        for property in (schema["properties"]?.members ?? []).prefix(Self.maxProperties) {
            guard property.value["readOnly"]?.bool != true,
                let item = value(property.value, depth: depth + 1, active: active)
            else { continue }
            members.append(DocumentMember(key: property.key, line: 0, column: 0, value: item))
        }
        if members.isEmpty, let extra = schema["additionalProperties"], extra.isObject,
            let item = value(extra, depth: depth + 1, active: active)
        {
            members.append(DocumentMember(key: "key", line: 0, column: 0, value: item))
        }
        return Self.node(.object(members))
    }

    /// `allOf`: the members of every part's (and the schema's own) object example, later
    /// parts overriding earlier ones; the first non-object example when no part is an object.
    private mutating func merged(_ schema: DocumentNode, parts: [DocumentNode], depth: Int, active: Set<String>)
        -> DocumentNode?
    {
        var members: [DocumentMember] = []
        var fallback: DocumentNode?
        var own = schema
        if case .object(let keys) = schema.value {
            own = DocumentNode(.object(keys.filter { $0.key != "allOf" }), line: schema.line, column: schema.column)
        }
        let sources = parts + (own["properties"] != nil ? [own] : [])
        for part in sources {
            guard let item = value(part, depth: depth + 1, active: active) else { continue }
            guard case .object(let partMembers) = item.value else {
                fallback = fallback ?? item
                continue
            }
            for member in partMembers {
                if let index = members.firstIndex(where: { $0.key == member.key }) {
                    members[index] = member
                } else {
                    members.append(member)
                }
            }
        }
        return members.isEmpty && fallback != nil ? fallback : Self.node(.object(members))
    }

    static func node(_ value: DocumentNode.Value) -> DocumentNode { DocumentNode(value, line: 0, column: 0) }
}
