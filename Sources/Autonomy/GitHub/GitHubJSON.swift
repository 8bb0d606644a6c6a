import Documents
import Foundation

/// JSON for the API both ways: request bodies written with members in the documented order,
/// answers read with `JSONSerialization` within a size bound (a garbage answer reads as nil).
enum GitHubJSON {
    /// A value in a request body.
    typealias Value = DocumentNode.Value

    /// Answers larger than this are not parsed: none of the ones read here comes near it.
    static let maxParsedBytes = 1 << 20

    /// The compact JSON text of an object with `members` in the given order.
    static func text(_ members: [(String, Value)]) -> String {
        JSONWriter.string(DocumentNode.object(members), sortKeys: false)
    }

    /// An object value with `members` in the given order.
    static func object(_ members: [(String, Value)]) -> Value {
        DocumentNode.object(members).value
    }

    /// An array value of `elements`.
    static func array(_ elements: [Value]) -> Value {
        .array(elements.map { DocumentNode($0, line: 1, column: 1) })
    }

    /// The parsed body, or nil when it is empty, too large or not JSON.
    static func parse(_ body: [UInt8]) -> Any? {
        guard !body.isEmpty, body.count <= maxParsedBytes else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])
    }
}
