import Documents
import Support

/// The `compilerOptions.paths` of one `tsconfig.json` or `jsconfig.json` (issue 75): TypeScript's
/// module aliases (`"@/*": ["./src/*"]`), which bundlers and the compiler resolve and the engine does
/// not (it follows relative specifiers only, DESIGN §1b). Read so that a scan can name the files
/// whose imports go through one, their flows into those modules not followed.
public struct PathAliases: Sendable, Hashable {
    /// One `paths` entry: a pattern with at most one `*`, and where it points.
    struct Alias: Sendable, Hashable {
        /// The pattern's text before its `*` (all of it when it has none).
        var prefix: String
        /// The pattern's text after its `*`.
        var suffix: String
        /// Whether the pattern has a `*` (else it names one specifier exactly).
        var wildcard: Bool
        /// The substitutions, each a path from the scan root with the pattern's `*` kept
        /// (`src/*`); those that leave the tree are dropped.
        var targets: [String]

        /// What `*` stands for in `specifier`, nil when the pattern does not match it.
        func capture(_ specifier: String) -> Substring? {
            // Bytes, as TypeScript compares code units: no normalisation makes two specifiers one.
            let bytes = specifier.utf8
            guard wildcard else { return bytes.elementsEqual(prefix.utf8) ? "" : nil }
            guard bytes.count >= prefix.utf8.count + suffix.utf8.count, bytes.starts(with: prefix.utf8),
                bytes.reversed().starts(with: suffix.utf8.reversed())
            else { return nil }
            let start = bytes.index(bytes.startIndex, offsetBy: prefix.utf8.count)
            let end = bytes.index(bytes.endIndex, offsetBy: -suffix.utf8.count)
            return Substring(bytes[start..<end])
        }
    }

    /// The most `paths` entries read from one file: real configs have a handful, and each import of
    /// each file under the config is compared with every entry.
    public static let maxAliases = 256
    /// The largest config read, in bytes (a real one is a few kilobytes).
    public static let maxConfigBytes = 1 << 20

    /// The directory of the config, relative to the scan root (`` for the root): its aliases are
    /// read for the files under it.
    public let directory: String
    /// The entries, in the file's order, at most ``maxAliases``.
    let aliases: [Alias]
    /// How many entries the file has (more than `aliases` holds when it has more than ``maxAliases``).
    public let declaredCount: Int

    /// Whether `file` (a path relative to the scan root) is a config that may hold aliases:
    /// `tsconfig.json`, `jsconfig.json`, and the `tsconfig.*.json` files others extend
    /// (`tsconfig.base.json`, Angular's `tsconfig.app.json`).
    public static func isConfig(_ file: String) -> Bool {
        let name = PathText.lastComponent(of: file)
        if name == "tsconfig.json" || name == "jsconfig.json" { return true }
        return name.hasPrefix("tsconfig.") && name.hasSuffix(".json") && name.utf8.count > "tsconfig..json".utf8.count
    }

    /// The aliases of the config `file` (relative to the scan root) whose bytes are `bytes`, read as
    /// JSON with comments and trailing commas, as TypeScript reads it. `baseUrl` is what `paths`
    /// are relative to when it is set, the config's directory otherwise. A config without `paths`
    /// has none.
    /// - Throws: `SentinelError(.invalidInput)` naming the file when it is not such JSON (nested
    ///   deeper than the reader's bound included).
    public init(file: String, bytes: [UInt8]) throws {
        let directory = PathText.directory(of: file)
        self.directory = directory
        let root = try JSON.parse(bytes, file: file, dialect: .jsonc)
        let options = root["compilerOptions"]
        let entries = options?["paths"]?.members ?? []
        declaredCount = entries.count
        let base = options?["baseUrl"]?.string.flatMap { Self.treePath($0, from: directory) } ?? directory
        aliases = entries.prefix(Self.maxAliases).compactMap { entry in
            let stars = entry.key.utf8.count { $0 == UInt8(ascii: "*") }
            // TypeScript rejects a pattern with two; an empty one names nothing.
            guard stars <= 1, !entry.key.isEmpty else { return nil }
            let targets = entry.value.elements.compactMap { $0.string.flatMap { Self.treePath($0, from: base) } }
            guard let star = entry.key.firstIndex(of: "*") else {
                return Alias(prefix: entry.key, suffix: "", wildcard: false, targets: targets)
            }
            return Alias(
                prefix: String(entry.key[..<star]), suffix: String(entry.key[entry.key.index(after: star)...]), wildcard: true,
                targets: targets)
        }
    }

    /// Whether the config has no alias.
    public var isEmpty: Bool { aliases.isEmpty }

    /// Whether the config's aliases are read for `file`: it lies under the config's directory.
    public func covers(_ file: String) -> Bool {
        PathText.lies(file, under: directory)
    }

    /// Whether `specifier` (a module as an import writes it) goes through one of the aliases.
    /// `exists`: whether a path from the scan root (without extension) is a module of the tree; a
    /// pattern that is `*` alone matches every package name (`react`), so it counts only when it
    /// leads to one of the project's files.
    func resolves(_ specifier: String, exists: (String) -> Bool) -> Bool {
        // A relative specifier is the engine's own; a URL or an absolute path is no alias.
        guard !specifier.hasPrefix("."), !specifier.hasPrefix("/") else { return false }
        for alias in aliases {
            guard let captured = alias.capture(specifier) else { continue }
            if !(alias.wildcard && alias.prefix.isEmpty && alias.suffix.isEmpty) { return true }
            if targets(alias, captured).contains(where: exists) { return true }
        }
        return false
    }

    /// The alias's targets with `*` replaced by `captured`, each kept inside the tree.
    private func targets(_ alias: Alias, _ captured: Substring) -> [String] {
        alias.targets.compactMap { target in
            // TypeScript substitutes the one `*` a target may have.
            guard let star = target.firstIndex(of: "*") else { return target }
            let substituted = String(target[..<star]) + String(captured) + String(target[target.index(after: star)...])
            return Self.treePath(substituted, from: "")
        }
    }

    /// `path` (relative, `./` and `../` allowed, or what a config writes) read from the tree's
    /// directory `directory`, as a path from the scan root without `.`, `..` or empty parts; nil
    /// when it leaves the tree or is absolute (an alias into another tree names no file here).
    static func treePath(_ path: String, from directory: String) -> String? {
        guard !path.hasPrefix("/") else { return nil }
        var parts = directory.split(separator: "/").map(String.init)
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(String(part))
            }
        }
        return parts.joined(separator: "/")
    }
}
