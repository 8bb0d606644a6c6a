#if canImport(Glibc)
    import Glibc
#endif
import PythonSyntax
import Support

/// A quick pass over a file's text for the names it imports (`from a.b import c, d`,
/// `import a.b`), before any parsing: a project scan summarises only the functions another module
/// imports, which is a small part of a large tree.
enum ImportScan {
    /// (module as written, name or "*", the local name when one is given with `as`) triples;
    /// relative modules keep their dots.
    static func imports(in text: String) -> [(module: String, name: String, alias: String?)] {
        var out: [(String, String, String?)] = []
        // The statement so far, while it goes on over more lines: an open parenthesis (until a
        // line with `)`) or a line ending in a backslash.
        var pending = ""
        var continuation: Continuation?
        var text = text
        // Bytes, not Characters: most lines are skipped after a look at their first letters.
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            var start = 0
            while start < bytes.count {
                let end =
                    memchr(base + start, 0x0A, bytes.count - start).map {
                        base.distance(to: $0.assumingMemoryBound(to: UInt8.self))
                    } ?? bytes.count
                defer { start = end + 1 }
                var first = start
                while first < end, bytes[first] == UInt8(ascii: " ") || bytes[first] == UInt8(ascii: "\t") { first += 1 }
                guard continuation != nil || Self.startsStatement(bytes, first, end) else { continue }
                // The code before a `#` (a `#` inside a string has no business in an import), without
                // trailing blanks or a CR.
                var last = bytes[first..<end].firstIndex(of: UInt8(ascii: "#")) ?? end
                while last > first, [UInt8(ascii: " "), UInt8(ascii: "\t"), 0x0D].contains(bytes[last - 1]) { last -= 1 }
                let line = bytes[first..<last]
                if continuation == .parenthesis {
                    pending += " " + String(decoding: line, as: UTF8.self)
                    if line.contains(UInt8(ascii: ")")) { continuation = nil }
                } else {
                    pending += (continuation == nil ? "" : " ") + String(decoding: line, as: UTF8.self)
                    if line.last == UInt8(ascii: "\\") {
                        continuation = .backslash
                    } else if pending.utf8.contains(UInt8(ascii: "(")), !pending.utf8.contains(UInt8(ascii: ")")) {
                        continuation = .parenthesis
                    } else {
                        continuation = nil
                    }
                }
                if continuation == nil {
                    out += parse(pending)
                    pending = ""
                }
            }
        }
        // A statement still going on at the end of the file.
        if !pending.isEmpty { out += parse(pending) }
        return out
    }

    private enum Continuation { case parenthesis, backslash }

    /// Whether the line at `first` starts with `from ` or `import `.
    private static func startsStatement(_ bytes: UnsafeBufferPointer<UInt8>, _ first: Int, _ end: Int) -> Bool {
        func word(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard end - first >= count else { return false }
            let start = text.utf8Start
            for k in 0..<count where bytes[first + k] != start[k] { return false }
            return true
        }
        return word("from ") || word("import ")
    }

    /// `import a.b as c, d` / `from m import (x as y, z)`: the statement's words (parentheses,
    /// backslashes and tabs count as spaces), then its comma-separated items' first words.
    /// Bytes, not Foundation's `replacingOccurrences`: this runs on every import of a tree.
    private static func parse(_ statement: String) -> [(String, String, String?)] {
        var words: [ArraySlice<UInt8>] = []
        var bytes = Array(statement.utf8)
        for i in bytes.indices where isBlank(bytes[i]) { bytes[i] = UInt8(ascii: " ") }
        var start = 0
        for i in 0...bytes.count where i == bytes.count || bytes[i] == UInt8(ascii: " ") {
            if i > start { words.append(bytes[start..<i]) }
            start = i + 1
        }
        guard let first = words.first else { return [] }
        if first.elementsEqual("import".utf8) {
            return items(words.dropFirst()).map { ($0.name, "*", $0.alias) }
        }
        guard first.elementsEqual("from".utf8), words.count >= 4, words[2].elementsEqual("import".utf8) else { return [] }
        let module = String(decoding: words[1], as: UTF8.self)
        return items(words.dropFirst(3)).map { (module, $0.name, $0.alias) }
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\t")
    }

    /// The first word of each comma-separated item of `words` joined by spaces, and the word
    /// after its `as` (`a as b, c` → (`a`, `b`), (`c`, nil)); empty items are skipped.
    private static func items(_ words: ArraySlice<ArraySlice<UInt8>>) -> [(name: String, alias: String?)] {
        var out: [(name: String, alias: String?)] = []
        // Where the current item is: at its start, after its first word, after its `as`, done.
        enum Position { case start, named, afterAs, done }
        var position = Position.start
        for word in words {
            var start = word.startIndex
            for i in word.startIndex...word.endIndex where i == word.endIndex || word[i] == UInt8(ascii: ",") {
                if i > start {
                    let part = word[start..<i]
                    switch position {
                    case .start:
                        out.append((String(decoding: part, as: UTF8.self), nil))
                        position = .named
                    case .named:
                        position = part.elementsEqual("as".utf8) ? .afterAs : .done
                    case .afterAs:
                        out[out.count - 1].alias = String(decoding: part, as: UTF8.self)
                        position = .done
                    case .done:
                        break
                    }
                }
                if i < word.endIndex { position = .start }
                start = i + 1
            }
        }
        return out
    }

    /// The attributes `text` reads of each of `names` (`run` of `Job.run(...)`, blanks around
    /// the dot allowed), by name: a quick pass over the bytes, before any parsing; strings and
    /// comments count too (more is harmless: it only keeps more summaries).
    static func attributes(of names: Set<String>, in text: String) -> [String: Set<String>] {
        guard !names.isEmpty else { return [:] }
        // The names' lengths as bits (63: that long or longer): most identifiers are rejected by length alone.
        let lengths = names.reduce(UInt64(0)) { $0 | 1 << UInt64(min($1.utf8.count, 63)) }
        var out: [String: Set<String>] = [:]
        var text = text
        text.withUTF8 { bytes in
            var i = 0
            while i < bytes.count {
                guard PythonIdentifier.isContinue(bytes[i]),
                    i == 0 || !(PythonIdentifier.isContinue(bytes[i - 1]) || bytes[i - 1] == UInt8(ascii: "."))
                else {
                    i += 1
                    continue
                }
                let start = i
                while i < bytes.count, PythonIdentifier.isContinue(bytes[i]) { i += 1 }
                guard lengths & 1 << UInt64(min(i - start, 63)) != 0 else { continue }
                var dot = i
                while dot < bytes.count, isSpace(bytes[dot]) { dot += 1 }
                guard dot < bytes.count, bytes[dot] == UInt8(ascii: ".") else { continue }
                let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
                guard names.contains(name) else { continue }
                var attribute = dot + 1
                while attribute < bytes.count, isSpace(bytes[attribute]) { attribute += 1 }
                var end = attribute
                while end < bytes.count, PythonIdentifier.isContinue(bytes[end]) { end += 1 }
                guard end > attribute else { continue }
                out[name, default: []].insert(String(decoding: UnsafeBufferPointer(rebasing: bytes[attribute..<end]), as: UTF8.self))
            }
        }
        return out
    }

    /// The names of `names` that `text` subclasses (`class DeviceView(ReturnURLMixin, View):`), from
    /// the `class` statements' base lists: a subclass may call any method of theirs through
    /// `self`. By bytes, as the rest of the pre-scan: it runs on every file of the tree.
    static func subclassed(_ names: Set<String>, in text: String) -> Set<String> {
        guard !names.isEmpty else { return [] }
        var out: Set<String> = []
        let all = Array(text.utf8)[...]
        for start in ByteSearch.occurrences(of: Array("class ".utf8), in: all) {
            // Only a statement: the line holds nothing but indentation before it.
            var before = start - 1
            while before >= 0, all[before] == UInt8(ascii: " ") || all[before] == UInt8(ascii: "\t") { before -= 1 }
            guard before < 0 || all[before] == UInt8(ascii: "\n") else { continue }
            var i = start + 6
            while i < all.count, ![UInt8(ascii: "("), UInt8(ascii: ":"), UInt8(ascii: "\n")].contains(all[i]) { i += 1 }
            guard i < all.count, all[i] == UInt8(ascii: "(") else { continue }
            // The base list on this line, word by word, up to its `)` or `:`.
            i += 1
            var word = i
            while i <= all.count {
                let byte = i < all.count ? all[i] : UInt8(ascii: ")")
                if !PythonIdentifier.isContinue(byte) {
                    let name = String(decoding: all[word..<i], as: UTF8.self)
                    if i > word, names.contains(name) { out.insert(name) }
                    if byte == UInt8(ascii: ")") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "\n") { break }
                    word = i + 1
                }
                i += 1
            }
        }
        return out
    }

    /// Blanks Python allows around a dot (lines may break inside brackets or after a backslash).
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "\\")
    }
}
