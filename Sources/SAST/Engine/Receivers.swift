/// The names a method's own object goes by: Python's `self` and `cls`, and JavaScript's `this`
/// (the lowering makes `this` an instance method's first parameter, as Python's `self` is).
enum Receivers {
    /// `self`, `cls`, `this`.
    static let names: Set<String> = ["self", "cls", "this"]

    /// Whether `name` is one of ``names``.
    static func contains(_ name: String?) -> Bool { name.map(names.contains) ?? false }
}
