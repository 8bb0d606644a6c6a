import Languages

/// The names a method's own object goes by: every registered language's
/// (``Language/receiverNames``: Python's `self` and `cls`, and JavaScript's `this`, which the
/// lowering makes an instance method's first parameter, as Python's `self` is).
enum Receivers {
    /// The registered languages' receiver names, read once (`self`, `cls`, `this`).
    static let names: Set<String> = Set(Languages.registry.all.flatMap(\.receiverNames))

    /// Whether `name` is one of ``names``.
    static func contains(_ name: String?) -> Bool { name.map(names.contains) ?? false }
}
