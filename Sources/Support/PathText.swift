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

    /// Whether `path`, relative to a tree's root, lies under `directory`, relative to the same root
    /// (`` is the root itself): `a/b/c` lies under `a/b` and under ``, not under `a/bc`.
    public static func lies(_ path: String, under directory: String) -> Bool {
        directory.isEmpty || path.hasPrefix(directory + "/")
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
        // Bytes and integer offsets only: generic collections of substrings cost their first
        // use in a process (runtime metadata) more than the whole walk.
        let slash = UInt8(ascii: "/")
        let dot = UInt8(ascii: ".")
        let bytes = Array(path.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var componentStarts: [Int] = []
        var index = 0
        while index < bytes.count {
            while index < bytes.count, bytes[index] == slash { index += 1 }
            let start = index
            while index < bytes.count, bytes[index] != slash { index += 1 }
            let length = index - start
            if length == 0 || (length == 1 && bytes[start] == dot) { continue }
            if length == 2, bytes[start] == dot, bytes[start + 1] == dot {
                if let last = componentStarts.popLast() { result.removeLast(result.count - last) }
                continue
            }
            componentStarts.append(result.count)
            result.append(slash)
            result.append(contentsOf: bytes[start..<index])
        }
        return result.isEmpty ? "/" : String(decoding: result, as: UTF8.self)
    }

    /// The extension of the last component, without its dot (`a/b.yaml` → `yaml`), or `` when it
    /// has none; a leading dot (`.profile`) starts a name, not an extension.
    public static func pathExtension(of path: String) -> String {
        let name = lastComponent(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// `path` without the extension of its last component (`a/b.yaml` → `a/b`).
    public static func deletingPathExtension(of path: String) -> String {
        let extensionText = pathExtension(of: path)
        guard !extensionText.isEmpty else { return path }
        return String(path.dropLast(extensionText.count + 1))
    }
}

extension StringProtocol {
    /// The text without leading and trailing white space and newlines, in the standard library
    /// (Foundation's `trimmingCharacters(in:)` costs ~0.8 M instructions at its first call).
    public func trimmedOfWhitespace() -> String {
        String(trimmingWhitespace(keepingNewlines: false))
    }

    /// The text without leading and trailing white space; newlines count as white space unless
    /// `keepingNewlines` (then only blanks such as spaces and tabs go).
    public func trimmingWhitespace(keepingNewlines: Bool) -> SubSequence {
        func trimmed(_ character: Character) -> Bool {
            character.isWhitespace && !(keepingNewlines && character.isNewline)
        }
        let start = drop(while: trimmed)
        return start.dropLast(start.reversed().prefix(while: trimmed).count)
    }
}
