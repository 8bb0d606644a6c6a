import Foundation
import Findings

/// Insecure deserialisation: a parameter or cookie that carries a serialised object (a base64
/// Python pickle, a PHP `serialize()` string) is replaced by an object of the scan's own — plain
/// strings and a dictionary, nothing that runs code — holding a marker. The marker in the answer
/// proves the server deserialises what clients send. The original object is never deserialised
/// here: its strings are read off the byte stream to reuse as keys.
public struct DeserializationCheck: ActiveCheck {
    static let rule = WebRule(
        id: "insecure-deserialization", name: "Insecure deserialisation", severity: .critical, cwe: [502],
        help: "Never unpickle or unserialize client data; use JSON and sign what must come back (HMAC).")

    /// The rules it reports.
    public var rules: [WebRule] { [Self.rule] }

    /// A check.
    public init() {}

    /// Only for values that decode to a pickle or a PHP serialised value.
    public func test(_ point: InsertionPoint, context: ActiveContext) throws -> [Finding] {
        let marker = context.markers.marker()
        let replacement: String
        let format: String
        if let bytes = Self.base64(point.original), bytes.count >= 2, bytes[0] == 0x80, (2...5).contains(bytes[1]) {
            let keys = PickleWriter.strings(in: bytes)
            replacement = Self.base64Encoded(PickleWriter.dictionary(keys: keys, value: marker), like: point.original)
            format = "Python pickle"
        } else if let php = PHPSerialized.replacingStrings(in: point.original, with: marker) {
            replacement = php
            format = "PHP serialize()"
        } else {
            return []
        }
        guard !context.baseline.text.contains(marker), let (request, response) = try context.send(point, replacement),
            response.text.contains(marker)
        else { return [] }
        return [
            Self.rule.finding(
                at: point,
                message: "Insecure deserialisation in '\(point.name)': the server deserialises a \(format) object the client sends",
                evidence: Evidence.of(request, response, around: marker)
                    + "\n(the object sent holds only strings; nothing was executed)")
        ]
    }

    static func base64(_ text: String) -> [UInt8]? {
        var normalized = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        normalized = normalized.removingPercentEncoding ?? normalized
        while normalized.count % 4 != 0 { normalized += "=" }
        return Data(base64Encoded: normalized).map { [UInt8]($0) }
    }

    /// `bytes` in base64, URL-safe when `original` was.
    static func base64Encoded(_ bytes: [UInt8], like original: String) -> String {
        let text = Data(bytes).base64EncodedString()
        guard original.contains("-") || original.contains("_") else { return text }
        return text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }
}
