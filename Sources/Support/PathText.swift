/// Path arithmetic on text, for names a scanned tree chooses. Foundation's
/// `NSString.deletingLastPathComponent` traps (SIGILL) on a one-character path such as `a` and
/// misses a `/` that a combining mark follows (swift-corelibs-foundation 6.3), so code that takes
/// names from a repository splits them here, on Unicode scalars.
public enum PathText {
    /// Everything before the last `/` (trailing slashes ignored): `a/b/c` → `a/b`, `a` → ``,
    /// `/a` → `/`, as `deletingLastPathComponent` means it.
    public static func directory(of path: String) -> String {
        var scalars = Substring(path).unicodeScalars
        while scalars.count > 1, scalars.last == "/" { scalars.removeLast() }
        guard let slash = scalars.lastIndex(of: "/") else { return "" }
        var directory = scalars[..<slash]
        while directory.count > 1, directory.last == "/" { directory.removeLast() }
        return directory.isEmpty ? "/" : String(directory)
    }

    /// The part after the last `/` (trailing slashes ignored): `a/b/c` → `c`, `a` → `a`.
    public static func lastComponent(of path: String) -> String {
        var scalars = Substring(path).unicodeScalars
        while scalars.count > 1, scalars.last == "/" { scalars.removeLast() }
        guard let slash = scalars.lastIndex(of: "/") else { return String(scalars) }
        let last = scalars[scalars.index(after: slash)...]
        return last.isEmpty ? "/" : String(last)
    }

    /// An absolute `path` with `.`, `..` and repeated or trailing slashes resolved on the text
    /// alone (no link is followed): `/a/./b//../c/` → `/a/c`. A relative path comes back as it is.
    public static func lexicallyNormalized(_ path: String) -> String {
        guard path.hasPrefix("/") else { return path }
        // Most paths need nothing: no `/.` (`.`, `..`, dot-files too), no `//`, no trailing `/`.
        let bytes = Array(path.utf8)
        let slash = UInt8(ascii: "/")
        let plain =
            bytes.last != slash && !zip(bytes, bytes.dropFirst()).contains { $0 == slash && ($1 == slash || $1 == UInt8(ascii: ".")) }
        if plain { return path }
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }
}

extension StringProtocol {
    /// The text without leading and trailing white space and newlines, in the standard library
    /// (Foundation's `trimmingCharacters(in:)` costs ~0.8 M instructions at its first call).
    public func trimmedOfWhitespace() -> String {
        let start = drop { $0.isWhitespace }
        return String(start.dropLast(start.reversed().prefix { $0.isWhitespace }.count))
    }
}
