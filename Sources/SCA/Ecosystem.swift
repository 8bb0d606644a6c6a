/// An OSV ecosystem, spelled as the OSV schema spells it (`PyPI`, `crates.io`, `Go`, `npm`, ...).
public struct Ecosystem: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The OSV spelling, e.g. `PyPI`; case matters.
    public let name: String
    /// An ecosystem named `name` as OSV spells it; any name is accepted.
    public init(_ name: String) { self.name = name }
    /// The OSV spelling.
    public var description: String { name }

    /// Python packages (PyPI).
    public static let pypi = Ecosystem("PyPI")
    /// Rust crates (crates.io).
    public static let cratesIO = Ecosystem("crates.io")
    /// Go modules.
    public static let go = Ecosystem("Go")
    /// npm packages.
    public static let npm = Ecosystem("npm")
    /// Ruby gems.
    public static let rubyGems = Ecosystem("RubyGems")
    /// PHP packages (Packagist, Composer).
    public static let packagist = Ecosystem("Packagist")
    /// Swift packages identified by repository URL.
    public static let swiftURL = Ecosystem("SwiftURL")

    /// Decodes from a plain string, the OSV spelling.
    public init(from decoder: Decoder) throws {
        name = try decoder.singleValueContainer().decode(String.self)
    }
    /// Encodes as a plain string, the OSV spelling.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
