import Documents

/// Example scalars by type and format, within the schema's bounds. None names a reachable
/// host: URL and host formats use the reserved `.invalid` domain.
enum SchemaScalars {
    /// A string for the schema's `format`, padded to `minLength` and cut to `maxLength`.
    static func string(_ schema: DocumentNode) -> String {
        let base = formats[schema["format"]?.string ?? ""] ?? "sentinel"
        var text = base
        if let minimum = bound(schema["minLength"]), minimum > Double(text.count) {
            let length = Int(min(minimum, 10_000))
            text = String(String(repeating: base, count: length / max(1, base.count) + 1).prefix(length))
        }
        if let maximum = bound(schema["maxLength"]), maximum >= 0, maximum < Double(text.count) {
            text = String(text.prefix(Int(maximum)))
        }
        return text
    }

    /// 1, moved inside `minimum`/`maximum` (and their exclusive forms) when they exclude it.
    static func integer(_ schema: DocumentNode) -> Int {
        let value = number(schema, preferred: 1, step: 1)
        return value.isFinite && abs(value) < 1e15 ? Int(value.rounded(.up)) : 1
    }

    /// 1.5, moved inside the bounds likewise.
    static func number(_ schema: DocumentNode) -> Double {
        number(schema, preferred: 1.5, step: 0.5)
    }

    private static func number(_ schema: DocumentNode, preferred: Double, step: Double) -> Double {
        var value = preferred
        // OpenAPI 3.0 writes `exclusiveMinimum: true` beside `minimum`; 3.1 writes the bound itself.
        let lowerExclusive = bound(schema["exclusiveMinimum"])
        let lower = lowerExclusive ?? bound(schema["minimum"])
        let lowerIsExclusive = lowerExclusive != nil || schema["exclusiveMinimum"]?.bool == true
        if let lower, value < lower || (lowerIsExclusive && value == lower) {
            value = lowerIsExclusive ? lower + step : lower
        }
        let upperExclusive = bound(schema["exclusiveMaximum"])
        let upper = upperExclusive ?? bound(schema["maximum"])
        let upperIsExclusive = upperExclusive != nil || schema["exclusiveMaximum"]?.bool == true
        if let upper, value > upper || (upperIsExclusive && value == upper) {
            value = upperIsExclusive ? upper - step : upper
        }
        return value
    }

    /// A numeric keyword's value.
    static func bound(_ node: DocumentNode?) -> Double? {
        switch node?.value {
        case .integer(let number): return Double(number)
        case .double(let number): return number.isFinite ? number : nil
        case .string(let text): return Double(text)
        default: return nil
        }
    }

    private static let formats: [String: String] = [
        "date": "2024-01-01", "date-time": "2024-01-01T00:00:00Z", "time": "12:00:00", "email": "sentinel@example.com",
        "idn-email": "sentinel@example.com", "uuid": "123e4567-e89b-42d3-a456-426614174000",
        "uri": "http://sentinel.invalid/", "url": "http://sentinel.invalid/", "uri-reference": "/sentinel",
        "iri": "http://sentinel.invalid/", "hostname": "sentinel.invalid", "ipv4": "127.0.0.1", "ipv6": "::1",
        "byte": "c2VudGluZWw=", "binary": "sentinel", "password": "Sentinel-123", "int32": "1", "int64": "1",
    ]
}
