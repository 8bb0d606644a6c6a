import Web

/// Values for empty form fields that pass common server-side validation. None names another
/// host: a URL field gets the page's own origin.
enum FormFiller {
    /// The field's default value when it has one, else filler for its type (cut to `maxlength`).
    static func value(for field: FormField, origin: WebOrigin) -> String {
        guard field.value.isEmpty else { return field.value }
        let filler = Self.filler(for: field, origin: origin)
        guard let limit = field.maxLength, limit < filler.count else { return filler }
        return String(filler.prefix(limit))
    }

    private static func filler(for field: FormField, origin: WebOrigin) -> String {
        switch field.kind {
        case .email: return "sentinel@example.com"
        case .number: return field.minimum.flatMap { Double($0) != nil ? $0 : nil } ?? "1"
        case .url: return origin.description + "/"
        case .date: return "2024-01-01"
        case .tel: return "5550100"
        case .password: return "Sentinel-123"
        case .other: return otherFiller[field.type] ?? "sentinel"
        default: return "sentinel"
        }
    }

    private static let otherFiller: [String: String] = [
        "range": "50", "color": "#000000", "time": "12:00", "datetime-local": "2024-01-01T12:00", "month": "2024-01",
        "week": "2024-W01",
    ]
}
