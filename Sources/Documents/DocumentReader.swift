import Support

/// Typed access to a `DocumentNode` tree for loaders of user files (profiles, rules, scan
/// config): every problem becomes `SentinelError(.invalidInput, "FILE:LINE: KEY: problem")`,
/// the line being where the offending value (or key) is written.
public struct DocumentReader: Sendable {
    /// The file name errors start with.
    public let source: String

    /// A reader whose errors name `source`.
    public init(source: String) {
        self.source = source
    }

    /// `FILE:LINE: KEY: problem`, or `FILE:LINE: problem` when `key` is empty.
    public func fail(_ line: Int, _ key: String, _ problem: String) -> SentinelError {
        let place = line > 0 ? "\(source):\(line)" : source
        return SentinelError(.invalidInput, key.isEmpty ? "\(place): \(problem)" : "\(place): \(key): \(problem)")
    }

    /// `fail` at the line of `node`.
    public func fail(_ node: DocumentNode, _ key: String, _ problem: String) -> SentinelError {
        fail(node.line, key, problem)
    }

    /// The members of a mapping; throws naming `key` for anything else.
    public func mapping(_ node: DocumentNode, key: String) throws -> [DocumentMember] {
        guard case .object(let members) = node.value else { throw fail(node, key, "must be a mapping") }
        return members
    }

    /// Throws at the first member (in document order) whose key is not in `allowed`.
    public func checkKeys(_ node: DocumentNode, allowed: Set<String>, at path: String) throws {
        for member in node.members where !allowed.contains(member.key) {
            let full = path.isEmpty ? member.key : "\(path).\(member.key)"
            throw fail(member.line, "", "unknown key '\(full)'")
        }
    }

    /// A string, nil when the node is absent or null.
    public func string(_ node: DocumentNode?, key: String) throws -> String? {
        guard let node, node.value != .null else { return nil }
        guard let text = node.string else { throw fail(node, key, "must be a string") }
        return text
    }

    /// A scalar rendered as text (env values may be written as numbers or booleans).
    public func scalarText(_ node: DocumentNode, key: String) throws -> String {
        guard let text = node.scalarText else { throw fail(node, key, "must be a scalar") }
        return text
    }

    /// A list of non-empty strings.
    public func stringList(_ node: DocumentNode, key: String) throws -> [String] {
        guard case .array(let items) = node.value else { throw fail(node, key, "must be a list") }
        return try items.enumerated().map { index, item in
            guard let text = item.string, !text.isEmpty else {
                throw fail(item, "\(key)[\(index)]", "must be a non-empty string")
            }
            return text
        }
    }

    /// A list of absolute paths without `..`.
    public func absolutePaths(_ node: DocumentNode, key: String) throws -> [String] {
        let paths = try stringList(node, key: key)
        for (index, path) in paths.enumerated() {
            guard path.hasPrefix("/"), !path.split(separator: "/").contains("..") else {
                throw fail(node.elements[index], "\(key)[\(index)]", "'\(path)' must be an absolute path without '..'")
            }
        }
        return paths
    }

    /// A number, written as one or as text.
    public func number(_ node: DocumentNode, key: String) throws -> Double {
        switch node.value {
        case .integer(let number): return Double(number)
        case .double(let number): return number
        case .string(let text):
            guard let number = Double(text) else { throw fail(node, key, "'\(text)' is not a number") }
            return number
        default: throw fail(node, key, "must be a number")
        }
    }

    /// An integer above 0, written as one or as text.
    public func positiveInt(_ node: DocumentNode, key: String) throws -> Int {
        guard let number = integer(node) else { throw fail(node, key, "must be an integer") }
        guard number > 0 else { throw fail(node, key, "must be above 0") }
        return number
    }

    /// A uid or gid; nil when absent.
    public func id(_ node: DocumentNode?, key: String) throws -> UInt32? {
        guard let node else { return nil }
        guard let number = integer(node), number >= 0, number < 4_294_967_295 else {
            throw fail(node, key, "must be an integer id")
        }
        return UInt32(number)
    }

    /// A size in bytes: a plain integer or text with a `K`/`M`/`G` suffix.
    public func size(_ node: DocumentNode, key: String) throws -> UInt64 {
        if case .integer(let number) = node.value, number >= 0 { return UInt64(number) }
        if let text = node.string, let bytes = Quantity.bytes(text) { return bytes }
        throw fail(node, key, "'\(node.scalarText ?? "?")' is not a size (e.g. 512M, 1G)")
    }

    /// A duration in seconds above 0: a number or text with an `s`/`m`/`h` suffix.
    public func duration(_ node: DocumentNode, key: String) throws -> Double {
        switch node.value {
        case .integer(let number) where number > 0: return Double(number)
        case .double(let number) where number > 0: return number
        case .string(let text):
            if let seconds = Quantity.seconds(text), seconds > 0 { return seconds }
        default: break
        }
        throw fail(node, key, "'\(node.scalarText ?? "?")' is not a duration (e.g. 30s, 5m)")
    }

    private func integer(_ node: DocumentNode) -> Int? {
        switch node.value {
        case .integer(let number): return number
        case .string(let text): return Int(text)
        default: return nil
        }
    }
}
