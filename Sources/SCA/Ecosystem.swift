/// An OSV ecosystem, spelled as the OSV schema spells it (`PyPI`, `crates.io`, `Go`, `npm`, ...).
public struct Ecosystem: Hashable, Sendable, Codable, CustomStringConvertible {
    public let name: String
    public init(_ name: String) { self.name = name }
    public var description: String { name }

    public static let pypi = Ecosystem("PyPI")
    public static let cratesIO = Ecosystem("crates.io")
    public static let go = Ecosystem("Go")
    public static let npm = Ecosystem("npm")
    public static let rubyGems = Ecosystem("RubyGems")
    public static let packagist = Ecosystem("Packagist")
    public static let swiftURL = Ecosystem("SwiftURL")

    public init(from decoder: Decoder) throws {
        name = try decoder.singleValueContainer().decode(String.self)
    }
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
