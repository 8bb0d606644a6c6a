import Documents
import Findings

/// The index read from the tree `Documents.JSON` parses, rather than through `Codable`: every
/// scan reads the whole index, and `JSONDecoder` spent most of its time in the keyed containers
/// (4.7 % of a small app's scan in `perf record`, issue 77). It reads exactly what the
/// synthesized decoding reads (`RuleIndexDocumentTests` holds the two equal on the shipped index
/// and on every field), ignoring keys it does not know as `JSONDecoder` does; anything missing
/// or of another type makes the whole index unusable (nil), so the scan reads every rule file.
/// Where the two readers differ, only an index edited by hand can tell: of a repeated key this
/// one keeps the last value (`JSONDecoder` the first), and it reads invalid UTF-8 as U+FFFD;
/// `sentinel rules index` writes neither, and an entry counts only for the bytes it describes.
extension RuleIndex {
    /// The index `bytes` spell, nil when they are not one this build can use.
    static func decode(_ bytes: [UInt8], file: String) -> RuleIndex? {
        guard let root = try? JSON.parse(bytes, file: file) else { return nil }
        return RuleIndex(document: root)
    }

    /// The index `root` holds, nil when a field is missing or of another type.
    init?(document root: DocumentNode) {
        guard let format = root["format"].flatMap(Field.integer), let files = root["files"].flatMap(Field.array) else { return nil }
        var entries: [Entry] = []
        entries.reserveCapacity(files.count)
        for file in files {
            guard let entry = Entry(document: file) else { return nil }
            entries.append(entry)
        }
        self.init(format: format, files: entries)
    }
}

extension RuleIndex.Entry {
    fileprivate init?(document node: DocumentNode) {
        guard node.isObject, let path = node["path"]?.string, let sha256 = node["sha256"]?.string,
            let isSet = node["isSet"]?.bool, let languages = node["languages"].flatMap(Field.strings),
            let identifiers = Field.optional(node["identifiers"], Field.stringLists),
            let text = Field.optional(node["text"], RuleIndex.TextNeeds.init(document:)),
            let header = Field.optional(node["header"], RuleIndex.Header.init(document:)),
            let taint = Field.optional(node["taint"], RuleIndex.TaintNeeds.init(document:))
        else { return nil }
        self.init(
            path: path, sha256: sha256, isSet: isSet, languages: languages, identifiers: identifiers, text: text, header: header,
            taint: taint)
    }
}

extension RuleIndex.TextNeeds {
    fileprivate init?(document node: DocumentNode) {
        // Each required entry: alternatives, each a string of bytes written as numbers.
        let byte: (DocumentNode) -> UInt8? = { Field.integer($0).flatMap(UInt8.init(exactly:)) }
        guard let caseInsensitive = node["caseInsensitive"]?.bool,
            let required = node["required"].flatMap({ Field.list($0) { Field.list($0) { Field.list($0, byte) } } })
        else { return nil }
        self.init(required: required, caseInsensitive: caseInsensitive)
    }
}

extension RuleIndex.TaintNeeds {
    fileprivate init?(document node: DocumentNode) {
        guard let sinks = node["sinks"].flatMap(Field.stringLists), let sanitizers = node["sanitizers"].flatMap(Field.strings),
            let sanitizerSets = node["sanitizerSets"].flatMap(Field.strings)
        else { return nil }
        self.init(sinks: sinks, sanitizers: sanitizers, sanitizerSets: sanitizerSets)
    }
}

extension RuleIndex.Header {
    fileprivate init?(document node: DocumentNode) {
        guard let id = node["id"]?.string, let descriptor = node["descriptor"].flatMap(RuleDescriptor.init(indexed:)),
            let bandit = node["bandit"].flatMap(Field.strings), let semgrep = node["semgrep"].flatMap(Field.strings)
        else { return nil }
        self.init(id: id, descriptor: descriptor, bandit: bandit, semgrep: semgrep)
    }
}

extension RuleDescriptor {
    /// A descriptor as its synthesized `Codable` spells it.
    fileprivate init?(indexed node: DocumentNode) {
        guard let id = node["id"]?.string, let tool = node["tool"]?.string, let shortDescription = node["shortDescription"]?.string,
            let severityName = node["defaultSeverity"]?.string, let defaultSeverity = Severity(rawValue: severityName),
            let cwe = node["cwe"].flatMap { Field.list($0, Field.integer) }, let tags = node["tags"].flatMap(Field.strings),
            let name = Field.optional(node["name"], \.string), let fullDescription = Field.optional(node["fullDescription"], \.string),
            let help = Field.optional(node["help"], \.string), let helpMarkdown = Field.optional(node["helpMarkdown"], \.string),
            let helpURI = Field.optional(node["helpURI"], \.string),
            let precision = Field.optional(node["precision"], { $0.string.flatMap(Confidence.init(rawValue:)) }),
            let score = Field.optional(node["securitySeverityScore"], Field.number)
        else { return nil }
        self.init(
            id: id, tool: ToolName(rawValue: tool), name: name, shortDescription: shortDescription, fullDescription: fullDescription,
            help: help, helpMarkdown: helpMarkdown, helpURI: helpURI, defaultSeverity: defaultSeverity, cwe: cwe, tags: tags,
            precision: precision)
        securitySeverityScore = score
    }
}

/// Readers of one field's value, nil when it has another type.
private enum Field {
    static func array(_ node: DocumentNode) -> [DocumentNode]? { node.isArray ? node.elements : nil }

    static func integer(_ node: DocumentNode) -> Int? {
        if case .integer(let value) = node.value { return value }
        return nil
    }

    /// A JSON number: `JSONDecoder` reads `7` and `7.5` alike as a `Double`.
    static func number(_ node: DocumentNode) -> Double? {
        switch node.value {
        case .integer(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// An array whose every element `read` reads, nil when it is not one or any element is not.
    static func list<T>(_ node: DocumentNode, _ read: (DocumentNode) -> T?) -> [T]? {
        guard node.isArray else { return nil }
        var out: [T] = []
        out.reserveCapacity(node.elements.count)
        for element in node.elements {
            guard let value = read(element) else { return nil }
            out.append(value)
        }
        return out
    }

    static func strings(_ node: DocumentNode) -> [String]? { list(node, \.string) }

    static func stringLists(_ node: DocumentNode) -> [[String]]? { list(node, strings) }

    /// An optional field as `decodeIfPresent` reads it: absent or `null` is `.some(nil)`; a value
    /// `read` cannot read is nil (the whole index is then unusable).
    static func optional<T>(_ node: DocumentNode?, _ read: (DocumentNode) -> T?) -> T?? {
        guard let node, node.value != .null else { return .some(nil) }
        guard let value = read(node) else { return nil }
        return .some(value)
    }
}
