import Documents
import Web

/// The body of an OpenAPI operation as an `Endpoint.Body`: JSON leaves and form fields become
/// parameters, anything else is one raw body.
enum APIBody {
    static func make(contentType: String, text: String) -> Endpoint.Body {
        let type = contentType.lowercased()
        if type.contains("json"), let node = try? JSON.parse(Array(text.utf8), file: "openapi body") {
            return .json(node)
        }
        if type == "application/x-www-form-urlencoded" {
            return .form(FormEncoding.decode(text).map { NameValue($0.0, $0.1) })
        }
        return .raw(contentType: contentType, text: text)
    }
}
