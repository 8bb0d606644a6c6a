import Foundation
import Heal

extension Evidence {
    /// `heal --format json`: the evidence object with the controller's outcome under `autonomy`
    /// (the evidence alone when the controller was not asked).
    public func json(with autonomy: AutonomyOutcome?) throws -> String {
        let text = String(decoding: try json(), as: UTF8.self)
        guard let autonomy else { return text }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
        object["autonomy"] = try JSONSerialization.jsonObject(with: try encoder.encode(autonomy))
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}
