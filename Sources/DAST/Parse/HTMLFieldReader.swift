import Web

/// Reads one form control from its start tag.
enum HTMLFieldReader {
    /// The control `token` (`input`, `button`, `select` or `textarea`) describes; a select's
    /// options and a textarea's text are added by the collector.
    static func field(_ token: HTMLToken, bytes: [UInt8]) -> FormField {
        let kind: FormField.Kind
        let type: String
        switch token.name {
        case "input":
            type = URLText.trimmed(token.attribute("type", in: bytes) ?? "text").lowercased()
            kind = .input(type: type)
        case "button":
            type = URLText.trimmed(token.attribute("type", in: bytes) ?? "submit").lowercased()
            kind = .button(type: type)
        case "select":
            (kind, type) = (.select, "select")
        default:
            (kind, type) = (.textarea, "textarea")
        }
        let checkable = kind == .checkbox || kind == .radio
        let value = token.attribute("value", in: bytes) ?? (checkable ? "on" : "")
        let maxLength = token.attribute("maxlength", in: bytes).flatMap { Int(URLText.trimmed($0)) }
        return FormField(
            name: token.attribute("name", in: bytes) ?? "", kind: kind, type: type,
            value: kind == .select || kind == .textarea ? "" : value, checked: checkable && token.hasAttribute("checked"),
            isDisabled: token.hasAttribute("disabled"), isRequired: token.hasAttribute("required"),
            maxLength: maxLength.flatMap { $0 >= 0 ? $0 : nil }, minimum: token.attribute("min", in: bytes),
            accept: kind == .file ? token.attribute("accept", in: bytes) : nil)
    }
}
