import Documents
import Web

/// Walks `paths` into operations: path items (possibly `$ref`ed), their methods, merged
/// parameters, request bodies and servers.
struct OpenAPIOperationReader {
    static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
    /// The most example values built for the whole document (each body has its own smaller cap).
    static let maxExampleNodes = 500_000
    /// The most parameters kept over all operations.
    static let maxParameters = 100_000

    let root: DocumentNode
    var references: OpenAPIReferences
    private var exampleNodes = OpenAPIOperationReader.maxExampleNodes
    private var parameterCount = 0
    /// Bytes the examples may become once written into requests (`ExampleBudget`).
    private var exampleBytes = ExampleBudget()
    private var spentNoted = false

    init(root: DocumentNode, file: String) {
        self.root = root
        references = OpenAPIReferences(root: root, file: file)
    }

    mutating func read() -> [APIOperation] {
        var operations: [APIOperation] = []
        let documentServers = Self.servers(root["servers"])
        for entry in root["paths"]?.members ?? [] {
            guard entry.key.hasPrefix("/") else {
                references.notice(entry.line, "path '\(entry.key)' does not start with '/'; skipped")
                continue
            }
            guard let item = references.resolve(entry.value) else { continue }
            let shared = parameters(item["parameters"])
            let pathServers = Self.servers(item["servers"])
            for member in item.members where Self.methods.contains(member.key.lowercased()) {
                guard operations.count < OpenAPIDocument.maxOperations else { return operations }
                let operation = member.value
                let servers = Self.servers(operation["servers"])
                let merged = Self.merge(shared, parameters(operation["parameters"]))
                // Path-level parameters are copied into every operation: count them there.
                guard parameterCount + merged.count <= Self.maxParameters else { return operations }
                parameterCount += merged.count
                operations.append(
                    APIOperation(
                        method: member.key, pathTemplate: entry.key, operationId: operation["operationId"]?.scalarText,
                        summary: operation["summary"]?.scalarText,
                        parameters: merged,
                        requestBody: operation["requestBody"].flatMap {
                            requestBody($0, operation: "\(member.key.uppercased()) \(entry.key)", line: member.line)
                        },
                        servers: servers.isEmpty ? (pathServers.isEmpty ? documentServers : pathServers) : servers,
                        line: member.line))
            }
        }
        return operations
    }

    /// Operation-level parameters replace path-level ones with the same name and location.
    static func merge(_ shared: [APIParameter], _ own: [APIParameter]) -> [APIParameter] {
        func key(_ parameter: APIParameter) -> String { parameter.location.rawValue + " " + parameter.name }
        var merged = shared
        // Indexed by location and name so long parameter lists merge in linear time.
        var index: [String: Int] = [:]
        for (position, parameter) in shared.enumerated() where index[key(parameter)] == nil {
            index[key(parameter)] = position
        }
        for parameter in own {
            if let position = index[key(parameter)] {
                merged[position] = parameter
            } else {
                index[key(parameter)] = merged.count
                merged.append(parameter)
            }
        }
        return merged
    }

    private mutating func parameters(_ list: DocumentNode?) -> [APIParameter] {
        var result: [APIParameter] = []
        for entry in (list?.elements ?? []).prefix(1_000) {
            guard let node = references.resolve(entry) else { continue }
            guard let name = node["name"]?.scalarText, !name.isEmpty else {
                references.notice(node.line, "parameter without a name; skipped")
                continue
            }
            guard let location = APIParameter.Location(rawValue: node["in"]?.scalarText ?? "") else {
                references.notice(node.line, "parameter '\(name)' has an unknown location; skipped")
                continue
            }
            var schema = node["schema"]
            if schema == nil, let media = node["content"]?.members.first?.value { schema = media["schema"] }
            let type = schema.flatMap { references.resolve($0) }.map(SchemaExample.type(of:))
            let value = example(node, schema: schema)
            var text = "sentinel"
            switch exampleBytes.admit(value, limit: ExampleBudget.maxParameterBytes) {
            case .admitted: text = OpenAPIText.text(of: value)
            case .tooLarge:
                references.notice(
                    node.line,
                    "parameter '\(name)': its example is over \(ExampleBudget.maxParameterBytes) bytes once written out; 'sentinel' sent instead"
                )
            case .documentSpent: noteSpent(node.line)
            }
            result.append(
                APIParameter(
                    name: name, location: location, required: node["required"]?.bool == true,
                    example: text, type: type, line: node.line))
        }
        return result
    }

    /// `example`, else the first of `examples`, else one built from `schema`.
    private mutating func example(_ node: DocumentNode, schema: DocumentNode?) -> DocumentNode {
        if let example = node["example"] { return example }
        for entry in node["examples"]?.members ?? [] {
            if let value = references.resolve(entry.value)?["value"] { return value }
        }
        if let media = node["content"]?.members.first?.value, let example = media["example"] { return example }
        var builder = SchemaExample(references: references, budget: exampleNodes)
        let allowance = builder.budget
        defer {
            references = builder.references
            exampleNodes -= allowance - builder.budget
        }
        return schema.flatMap { builder.value($0) } ?? SchemaExample.node(.string("sentinel"))
    }

    private mutating func requestBody(_ entry: DocumentNode, operation: String, line: Int) -> APIRequestBody? {
        guard let node = references.resolve(entry), let content = node["content"] else { return nil }
        let types = content.members.map(\.key)
        guard let mediaType = OpenAPIMediaTypes.preferred(types), let media = content[mediaType] else { return nil }
        let value = example(media, schema: media["schema"])
        let required = node["required"]?.bool == true
        // Measured before it is written out: what a shared `$ref` target becomes in every request.
        let empty = APIRequestBody(mediaType: mediaType, required: required, body: JSONBody(SchemaExample.node(.object([]))), text: "")
        switch exampleBytes.admit(value, limit: ExampleBudget.maxBodyBytes) {
        case .admitted: break
        case .tooLarge:
            references.notice(
                line,
                "\(operation): the request body's example is over \(ExampleBudget.maxBodyBytes) bytes once written out; sent without it")
            return empty
        case .documentSpent:
            noteSpent(line)
            return empty
        }
        let body = JSONBody(value)
        let text: String
        switch OpenAPIMediaTypes.essence(mediaType) {
        case let type where OpenAPIMediaTypes.isJSON(type): text = body.text
        case "application/x-www-form-urlencoded": text = FormEncoding.encode(body.formPairs)
        case "multipart/form-data": text = ""
        case let type where OpenAPIMediaTypes.isXML(type): text = body.root.string ?? OpenAPIText.xml(of: body.root)
        default: text = OpenAPIText.text(of: body.root)
        }
        // A form or XML rendering may be longer than the JSON measured.
        guard text.utf8.count <= ExampleBudget.maxBodyBytes else {
            references.notice(
                line,
                "\(operation): the request body's example is over \(ExampleBudget.maxBodyBytes) bytes once written out; sent without it")
            return empty
        }
        return APIRequestBody(mediaType: mediaType, required: required, body: body, text: text)
    }

    /// The notice, once, that the document's examples, written out, passed what all of them may hold.
    private mutating func noteSpent(_ line: Int) {
        guard !spentNoted else { return }
        spentNoted = true
        references.notice(
            line,
            "the examples of this document are over \(ExampleBudget.maxDocumentBytes) bytes once written into requests; "
                + "the rest are sent without them")
    }

    /// Server URLs with `{variable}`s replaced by their `default` (else first `enum` value).
    static func servers(_ list: DocumentNode?) -> [String] {
        (list?.elements ?? []).prefix(100).compactMap { server in
            guard var url = server["url"]?.scalarText else { return nil }
            for variable in server["variables"]?.members ?? [] {
                let value = variable.value["default"]?.scalarText ?? variable.value["enum"]?.elements.first?.scalarText ?? ""
                url = url.replacing("{\(variable.key)}", with: value)
            }
            return url
        }
    }
}
