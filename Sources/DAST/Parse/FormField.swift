import Web

/// One control of an HTML form, as written in the page.
public struct FormField: Sendable, Hashable {
    /// A `name=value` pair as submitted.
    public typealias Pair = FormPair

    /// What the control is: the `<input type>` (unknown types are `text`, as in browsers),
    /// or `select`, `textarea`, or a `<button type>`.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case text, hidden, password, email, number, url, search, tel, date, checkbox, radio, select, textarea
        case file, submit, button, image, reset
        /// A known input type without a kind of its own (`range`, `color`, `time`, `month`...):
        /// `type` says which.
        case other
    }

    /// The `name` attribute (empty: the control is never submitted).
    public var name: String
    /// What the control is.
    public var kind: Kind
    /// The lowercased `type` attribute as written, or the element name for `select`/`textarea`.
    public var type: String
    /// The default value: the `value` attribute (`on` for a checkbox or radio without one), a
    /// textarea's text, or a select's selected (else first) option.
    public var value: String
    /// A select's option values in order (the `value` attribute, else the text).
    public var options: [String]
    /// Whether a checkbox or radio is checked by default.
    public var checked: Bool
    /// `disabled` on the control or an enclosing `<fieldset disabled>`: never submitted.
    public var isDisabled: Bool
    /// The `required` attribute.
    public var isRequired: Bool
    /// The `maxlength` attribute, when a non-negative integer.
    public var maxLength: Int?
    /// The `min` attribute as written (numbers and dates).
    public var minimum: String?
    /// A file input's `accept` attribute as written (`.yaml,.yml`, `text/xml`, `image/*`).
    public var accept: String?

    /// A control; everything but `name` and `kind` defaults to absent.
    public init(
        name: String, kind: Kind, type: String? = nil, value: String = "", options: [String] = [],
        checked: Bool = false, isDisabled: Bool = false, isRequired: Bool = false, maxLength: Int? = nil,
        minimum: String? = nil, accept: String? = nil
    ) {
        self.name = name
        self.kind = kind
        self.type = type ?? kind.rawValue
        self.value = value
        self.options = options
        self.checked = checked
        self.isDisabled = isDisabled
        self.isRequired = isRequired
        self.maxLength = maxLength
        self.minimum = minimum
        self.accept = accept
    }
}

extension FormField.Kind {
    /// The kind of `<input type="...">`; missing or unknown types are `text`.
    static func input(type: String) -> Self {
        if let kind = Self(rawValue: type), kind != .select, kind != .textarea, kind != .other { return kind }
        return otherInputTypes.contains(type) ? .other : .text
    }

    /// The kind of `<button type="...">`: `submit` unless `reset` or `button`.
    static func button(type: String) -> Self {
        type == "reset" ? .reset : (type == "button" ? .button : .submit)
    }

    private static let otherInputTypes: Set<String> = ["range", "color", "time", "datetime-local", "month", "week"]
}
