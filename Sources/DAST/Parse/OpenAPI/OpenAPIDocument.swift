import Documents
import DocumentsYAML
import Support
import Web

/// An OpenAPI 3.0 or 3.1 document (JSON or YAML) read into the operations an API scan
/// exercises. Structural problems throw `SentinelError(.invalidInput, "FILE:LINE: problem")`;
/// what can be skipped (a `$ref` to another file, an unknown parameter location) is skipped
/// with a notice.
public struct OpenAPIDocument: Sendable, Hashable {
    /// The file name errors and notices start with.
    public var file: String
    /// The `openapi` version as written (`3.0.3`, `3.1.0`).
    public var version: String
    /// `info.title`.
    public var title: String?
    /// The document-level server URLs (variables replaced by their defaults).
    public var servers: [String]
    /// The operations in document order.
    public var operations: [APIOperation]
    /// `FILE:LINE: problem` for each thing skipped.
    public var notices: [String]

    /// The largest file read.
    public static let maxBytes = 32 << 20
    /// The most operations read.
    public static let maxOperations = 10_000

    /// Reads the document at `path` (at most `maxBytes`).
    public static func load(path: String) throws -> OpenAPIDocument {
        try parse(bytes: Array(BoundedFile.read(path, limit: maxBytes)), file: path)
    }

    /// Parses a document; JSON when it starts with `{`, YAML otherwise.
    public static func parse(bytes: [UInt8], file: String) throws -> OpenAPIDocument {
        let reader = DocumentReader(source: file)
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let first = bytes[start...].first { !HTMLBytes.isSpace($0) }
        let root: DocumentNode
        if first == UInt8(ascii: "{") {
            do {
                root = try JSON.parse(bytes, file: file)
            } catch {
                // A YAML flow mapping also starts with `{`; the JSON error is the better one otherwise.
                guard let yaml = try? YAML.parse(bytes, file: file, scalars: .typed) else { throw error }
                root = yaml
            }
        } else {
            root = try YAML.parse(bytes, file: file, scalars: .typed)
        }
        guard root.isObject else { throw reader.fail(root, "", "not an OpenAPI document (expected a mapping)") }
        guard let versionNode = root["openapi"] else {
            if let swagger = root.member("swagger") {
                throw reader.fail(swagger.line, "", "Swagger 2.0 is not supported (convert the document to OpenAPI 3)")
            }
            throw reader.fail(root, "", "not an OpenAPI document (no 'openapi' key)")
        }
        let version = versionNode.scalarText ?? ""
        guard version.hasPrefix("3.") else {
            throw reader.fail(versionNode, "openapi", "version '\(version)' is not supported (only 3.0 and 3.1)")
        }
        if let paths = root["paths"], !paths.isObject, paths.value != .null {
            throw reader.fail(paths, "paths", "must be a mapping")
        }
        var operations = OpenAPIOperationReader(root: root, file: file)
        let found = operations.read()
        return OpenAPIDocument(
            file: file, version: version, title: root["info"]?["title"]?.scalarText,
            servers: OpenAPIOperationReader.servers(root["servers"]), operations: found,
            notices: operations.references.notices)
    }
}
