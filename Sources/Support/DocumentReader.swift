/// Typed access to a parsed YAML/JSON document (as `Yams.load` or `JSONSerialization`
/// return it), with errors naming the file and the key. Every loader of user files uses it,
/// so every bad-input message has the same shape: `FILE: KEY: problem`.
public struct DocumentReader: Sendable {
    public let source: String

    public init(source: String) {
        self.source = source
    }

    public func fail(_ key: String, _ problem: String) -> SentinelError {
        SentinelError(.invalidInput, "\(source): \(key): \(problem)")
    }

    public func checkKeys(_ map: [String: Any], allowed: Set<String>, at path: String) throws {
        for key in map.keys.sorted() where !allowed.contains(key) {
            let full = path.isEmpty ? key : "\(path).\(key)"
            throw SentinelError(.invalidInput, "\(source): unknown key '\(full)'")
        }
    }

    public func mapping(_ value: Any, key: String) throws -> [String: Any] {
        if let map = value as? [String: Any] { return map }
        if let map = value as? [AnyHashable: Any] {
            var result: [String: Any] = [:]
            for (name, item) in map {
                guard let text = name as? String else { throw fail(key, "keys must be strings") }
                result[text] = item
            }
            return result
        }
        throw fail(key, "must be a mapping")
    }

    public func string(_ value: Any?, key: String) throws -> String? {
        guard let value else { return nil }
        guard let text = value as? String else { throw fail(key, "must be a string") }
        return text
    }

    /// A scalar rendered as text (env values may be written as numbers or booleans).
    public func scalarText(_ value: Any, key: String) throws -> String {
        switch value {
        case let text as String: return text
        case let number as Int: return String(number)
        case let number as Double: return String(number)
        case let flag as Bool: return flag ? "true" : "false"
        default: throw fail(key, "must be a scalar")
        }
    }

    public func stringList(_ value: Any, key: String) throws -> [String] {
        guard let list = value as? [Any] else { throw fail(key, "must be a list") }
        return try list.enumerated().map { index, item in
            guard let text = item as? String, !text.isEmpty else {
                throw fail("\(key)[\(index)]", "must be a non-empty string")
            }
            return text
        }
    }

    public func absolutePaths(_ value: Any, key: String) throws -> [String] {
        let paths = try stringList(value, key: key)
        for (index, path) in paths.enumerated() {
            guard path.hasPrefix("/"), !path.split(separator: "/").contains("..") else {
                throw fail("\(key)[\(index)]", "'\(path)' must be an absolute path without '..'")
            }
        }
        return paths
    }

    public func number(_ value: Any, key: String) throws -> Double {
        switch value {
        case let number as Int: return Double(number)
        case let number as Double: return number
        case let text as String:
            guard let number = Double(text) else { throw fail(key, "'\(text)' is not a number") }
            return number
        default: throw fail(key, "must be a number")
        }
    }

    public func positiveInt(_ value: Any, key: String) throws -> Int {
        guard let number = (value as? Int) ?? (value as? String).flatMap({ Int($0) }) else {
            throw fail(key, "must be an integer")
        }
        guard number > 0 else { throw fail(key, "must be above 0") }
        return number
    }

    public func id(_ value: Any?, key: String) throws -> UInt32? {
        guard let value else { return nil }
        guard let number = (value as? Int) ?? (value as? String).flatMap({ Int($0) }), number >= 0,
              number < 4_294_967_295
        else {
            throw fail(key, "must be an integer id")
        }
        return UInt32(number)
    }

    public func size(_ value: Any, key: String) throws -> UInt64 {
        if let number = value as? Int, number >= 0 { return UInt64(number) }
        if let text = value as? String, let bytes = Quantity.bytes(text) { return bytes }
        throw fail(key, "'\(value)' is not a size (e.g. 512M, 1G)")
    }

    public func duration(_ value: Any, key: String) throws -> Double {
        if let number = value as? Int, number > 0 { return Double(number) }
        if let number = value as? Double, number > 0 { return number }
        if let text = value as? String, let seconds = Quantity.seconds(text), seconds > 0 { return seconds }
        throw fail(key, "'\(value)' is not a duration (e.g. 30s, 5m)")
    }
}
