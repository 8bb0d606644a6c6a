/// Finds a block's SEARCH lines in a file and puts its REPLACE lines there: an exact match
/// (ignoring only CRLF line ends) that must be unique; when there is none, a match that ignores
/// whitespace at the ends of lines and in runs, also unique, whose indentation difference is
/// carried over to the new lines.
enum SearchReplaceMatch {
    /// Why a block could not be placed.
    enum Failure: Error, Equatable {
        case noMatch
        case ambiguous(Int, fuzzy: Bool)
    }

    /// `text` with `search` replaced by `replace`.
    static func apply(search: [String], replace: [String], in text: String) throws(Failure) -> String {
        var lines = TextLines.split(text)
        let crlf = lines.filter { $0.hasSuffix("\r") }.count * 2 > lines.count
        let plain = lines.map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
        var new = replace
        var range: Range<Int>
        let exact = matches(search, in: plain, by: { $0 })
        if exact.count == 1 {
            range = exact[0]
        } else if exact.count > 1 {
            throw .ambiguous(exact.count, fuzzy: false)
        } else {
            let (core, trimmed) = trimBlankEdges(search, replace)
            let fuzzy = core.isEmpty ? [] : matches(core, in: plain, by: normalized)
            guard fuzzy.count == 1 else { throw fuzzy.isEmpty ? .noMatch : .ambiguous(fuzzy.count, fuzzy: true) }
            range = fuzzy[0]
            new = reindented(trimmed, search: core, found: Array(plain[range]))
        }
        if crlf { new = new.map { $0 + "\r" } }
        lines.replaceSubrange(range, with: new)
        return lines.joined(separator: "\n")
    }

    private static func matches(_ search: [String], in lines: [String], by key: (String) -> String) -> [Range<Int>] {
        guard !search.isEmpty, search.count <= lines.count else { return [] }
        let wanted = search.map(key)
        let keys = lines.map(key)
        return (0...(lines.count - search.count)).compactMap { start in
            keys[start..<(start + search.count)].elementsEqual(wanted) ? start..<(start + search.count) : nil
        }
    }

    /// Whitespace runs folded to one space, ends trimmed.
    private static func normalized(_ line: String) -> String {
        line.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Models often add a blank line after SEARCH or before the divider: the fuzzy match drops
    /// blank lines at both ends of SEARCH, and as many blank lines at the same ends of REPLACE.
    private static func trimBlankEdges(_ search: [String], _ replace: [String]) -> ([String], [String]) {
        let blank = { (line: String) in line.allSatisfy(\.isWhitespace) }
        let leading = search.prefix(while: blank).count
        guard leading < search.count else { return ([], replace) }
        let trailing = search.reversed().prefix(while: blank).count
        let core = Array(search[leading..<(search.count - trailing)])
        var new = replace
        let dropFront = min(leading, new.prefix(while: blank).count)
        new.removeFirst(dropFront)
        let dropBack = min(trailing, new.reversed().prefix(while: blank).count)
        new.removeLast(dropBack)
        return (core, new)
    }

    /// When every non-blank line found is the SEARCH line with the same indentation added (or
    /// removed), the REPLACE lines get the same shift; otherwise they are kept as written.
    private static func reindented(_ replace: [String], search: [String], found: [String]) -> [String] {
        func indent(_ line: String) -> Substring { line.prefix { $0 == " " || $0 == "\t" } }
        let pairs = zip(search, found).filter { !$0.0.allSatisfy(\.isWhitespace) }
        guard let (firstSearch, firstFound) = pairs.first else { return replace }
        let (want, have) = (indent(firstSearch), indent(firstFound))
        if have.count > want.count, have.hasSuffix(want) {
            let extra = String(have.dropLast(want.count))
            guard pairs.allSatisfy({ indent($0.1) == extra + indent($0.0) }) else { return replace }
            return replace.map { $0.allSatisfy(\.isWhitespace) ? $0 : extra + $0 }
        }
        if want.count > have.count, want.hasSuffix(have) {
            let surplus = want.count - have.count
            let prefix = want.dropLast(have.count)
            guard pairs.allSatisfy({ indent($0.0) == prefix + indent($0.1) }) else { return replace }
            return replace.map { $0.hasPrefix(prefix) ? String($0.dropFirst(surplus)) : $0 }
        }
        return replace
    }
}
