/// The top-level blocks of a single-file component, found as its compiler finds them
/// (@vue/compiler-sfc's `sfc` parse mode, Svelte's parser): a small HTML tokenizer over the file's
/// bytes, not a search for the text `<script` (issue 76, H6: a `<script` in a comment, an
/// attribute value or a `<style>` block used to swallow the real script).
///
/// - Comments (`<!-- … -->`) and declarations (`<!doctype …>`) are skipped.
/// - A start tag's attributes are read as HTML reads them: names, then an optional `=` with
///   whitespace around it, then a quoted or unquoted value, so a `>` or `<script` inside a quoted
///   value is text, and `data-type=` is not `type=`.
/// - `<script>` and `<style>` hold raw text up to their own end tag; `<template>` holds markup
///   whose nested `<template>`s are counted, and no `<script>` inside it is a block (Vue ignores
///   one there). Vue's other top-level blocks (`<i18n>`, `<docs>`) hold raw text too. In Svelte
///   the markup between blocks is walked for tags, its `{…}` expressions skipped whole.
///
/// Every step moves forward, so the work is linear in the file.
struct ComponentBlocks {
    /// One `<script>` block: its attributes (names lower-cased, values as written; nil for an
    /// attribute without `=`) and the byte range of its content.
    struct Script {
        var attributes: [(name: String, value: String?)]
        var content: Range<Int>
        /// Where its end tag starts (the `<` of `</script`); nil when the file ends inside it.
        var endTag: Int?

        /// The value of attribute `name` (lower-case), nil when it is absent or has no value.
        func attribute(_ name: String) -> String? {
            attributes.first { $0.name == name }?.value
        }

        /// Whether the block is code: no `type`, or a JavaScript or TypeScript type. JSON, templates
        /// (`text/x-template`) and other data blocks are not.
        var isCode: Bool {
            guard let type = attribute("type")?.trimmed.lowercased(), !type.isEmpty else { return true }
            return type == "module" || type.contains("javascript") || type.contains("ecmascript")
                || type.contains("typescript") || type.contains("babel") || type.contains("jsx")
        }
    }

    /// The file's `<script>` blocks, in order.
    private(set) var scripts: [Script] = []

    private let bytes: [UInt8]
    private let svelte: Bool
    /// Whether `{` opens an expression (Svelte's markup); false once one never closed: a stray
    /// brace must not hide the blocks after it, nor make every later brace search to the end.
    private var readsExpressions: Bool

    /// Tokenizes `bytes`; `svelte` reads the markup between blocks as Svelte's (`{…}` expressions).
    init(_ bytes: [UInt8], svelte: Bool) {
        self.bytes = bytes
        self.svelte = svelte
        readsExpressions = svelte
        var i = 0
        while i < bytes.count {
            if readsExpressions && bytes[i] == UInt8(ascii: "{") {
                i = skipExpression(from: i)
                continue
            }
            guard bytes[i] == UInt8(ascii: "<"), i + 1 < bytes.count else {
                i += 1
                continue
            }
            let next = bytes[i + 1]
            if starts("<!--", at: i) {
                i = after("-->", from: i + 4)
            } else if next == UInt8(ascii: "/") || next == UInt8(ascii: "!") || next == UInt8(ascii: "?") {
                // An end tag of the markup, a declaration or a processing instruction: to its `>`.
                i = after(">", from: i + 2)
            } else if Self.isLetter(next) {
                guard let tag = startTag(at: i) else { return }
                i = block(tag)
            } else {
                i += 1
            }
        }
    }

    /// A start tag: its name (lower-cased), attributes, and where it ends (after its `>`).
    private struct StartTag {
        var name: String
        var attributes: [(name: String, value: String?)]
        var end: Int
        var selfClosing: Bool
    }

    /// Takes the element `tag` opens and returns where the tokenizer goes on.
    private mutating func block(_ tag: StartTag) -> Int {
        if tag.selfClosing { return tag.end }
        switch tag.name {
        case "script":
            let end = rawTextEnd("script", from: tag.end)
            scripts.append(Script(attributes: tag.attributes, content: tag.end..<(end ?? bytes.count), endTag: end))
            return end.map { after(">", from: $0) } ?? bytes.count
        case "style":
            return rawTextEnd("style", from: tag.end).map { after(">", from: $0) } ?? bytes.count
        case "template":
            return templateEnd(from: tag.end)
        default:
            // Vue: every other top-level block is raw text (custom blocks). Svelte: markup, whose
            // tags are read on.
            if svelte { return tag.end }
            return rawTextEnd(tag.name, from: tag.end).map { after(">", from: $0) } ?? bytes.count
        }
    }

    /// Reads the start tag whose `<` is at `start`; nil when the file ends inside it.
    private mutating func startTag(at start: Int) -> StartTag? {
        var j = start + 1
        let nameStart = j
        while j < bytes.count && !Self.isSpace(bytes[j]) && bytes[j] != UInt8(ascii: ">") && bytes[j] != UInt8(ascii: "/") {
            j += 1
        }
        let name = Self.lowercased(bytes[nameStart..<j])
        var attributes: [(name: String, value: String?)] = []
        while true {
            while j < bytes.count && Self.isSpace(bytes[j]) { j += 1 }
            guard j < bytes.count else { return nil }
            switch bytes[j] {
            case UInt8(ascii: ">"):
                return StartTag(name: name, attributes: attributes, end: j + 1, selfClosing: false)
            case UInt8(ascii: "/"):
                if j + 1 < bytes.count && bytes[j + 1] == UInt8(ascii: ">") {
                    return StartTag(name: name, attributes: attributes, end: j + 2, selfClosing: true)
                }
                j += 1
                continue
            case UInt8(ascii: "{") where readsExpressions:
                // `{name}` or `{...props}`: an attribute that is an expression.
                j = skipExpression(from: j)
                continue
            default:
                break
            }
            let attributeStart = j
            // An attribute's name may begin with `=` (HTML's tokenizer takes it as a name character there).
            j += 1
            while j < bytes.count && !Self.isSpace(bytes[j])
                && ![UInt8(ascii: "="), UInt8(ascii: ">"), UInt8(ascii: "/")].contains(bytes[j])
            {
                j += 1
            }
            let attributeName = Self.lowercased(bytes[attributeStart..<j])
            var k = j
            while k < bytes.count && Self.isSpace(bytes[k]) { k += 1 }
            guard k < bytes.count, bytes[k] == UInt8(ascii: "=") else {
                attributes.append((attributeName, nil))
                continue
            }
            k += 1
            while k < bytes.count && Self.isSpace(bytes[k]) { k += 1 }
            guard k < bytes.count else { return nil }
            let value: Range<Int>
            if bytes[k] == UInt8(ascii: "\"") || bytes[k] == UInt8(ascii: "'") {
                let quote = bytes[k]
                var close = k + 1
                while close < bytes.count && bytes[close] != quote { close += 1 }
                guard close < bytes.count else { return nil }
                value = (k + 1)..<close
                j = close + 1
            } else if readsExpressions && bytes[k] == UInt8(ascii: "{") {
                j = skipExpression(from: k)
                value = k..<j
            } else {
                var end = k
                while end < bytes.count && !Self.isSpace(bytes[end]) && bytes[end] != UInt8(ascii: ">") { end += 1 }
                value = k..<end
                j = end
            }
            attributes.append((attributeName, String(decoding: bytes[value], as: UTF8.self)))
        }
    }

    /// Where the end tag of raw text element `name` starts (`</name` then a space, `/` or `>`),
    /// searching from `from`; nil when there is none.
    private func rawTextEnd(_ name: String, from: Int) -> Int? {
        let needle = Array("</\(name)".utf8)
        var i = from
        while i + needle.count <= bytes.count {
            if bytes[i] == UInt8(ascii: "<"), matches(needle, at: i), endsName(at: i + needle.count) { return i }
            i += 1
        }
        return nil
    }

    /// Where the tokenizer goes on after a `<template>` whose content starts at `from`: after the
    /// end tag that closes it, nested `<template>`s counted, comments skipped.
    private mutating func templateEnd(from: Int) -> Int {
        var depth = 1
        var i = from
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "<") else {
                i += 1
                continue
            }
            if starts("<!--", at: i) {
                i = after("-->", from: i + 4)
            } else if matches(Array("</template".utf8), at: i), endsName(at: i + 10) {
                depth -= 1
                i = after(">", from: i + 10)
                if depth == 0 { return i }
            } else if matches(Array("<template".utf8), at: i), endsName(at: i + 9) {
                guard let tag = startTag(at: i) else { return bytes.count }
                if !tag.selfClosing { depth += 1 }
                i = tag.end
            } else {
                i += 1
            }
        }
        return bytes.count
    }

    /// Where a Svelte `{…}` expression starting at `start` ends (after its `}`): braces counted,
    /// JavaScript's strings skipped. One that never closes is not an expression: the brace is
    /// text, and so is every later one.
    private mutating func skipExpression(from start: Int) -> Int {
        var depth = 0
        var i = start
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") || b == UInt8(ascii: "`") {
                i += 1
                while i < bytes.count && bytes[i] != b {
                    i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1
                }
            } else if b == UInt8(ascii: "{") {
                depth += 1
            } else if b == UInt8(ascii: "}") {
                depth -= 1
                if depth == 0 { return i + 1 }
            }
            i += 1
        }
        readsExpressions = false
        return start + 1
    }

    /// The offset just past the first `text` at or after `from`; the end of the file without one.
    private func after(_ text: String, from: Int) -> Int {
        let needle = Array(text.utf8)
        var i = max(from, 0)
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0] && matches(needle, at: i) { return i + needle.count }
            i += 1
        }
        return bytes.count
    }

    private func starts(_ text: String, at i: Int) -> Bool { matches(Array(text.utf8), at: i) }

    /// Whether `needle` (lower-case ASCII) is at `i`, ASCII case-insensitively.
    private func matches(_ needle: [UInt8], at i: Int) -> Bool {
        guard i + needle.count <= bytes.count else { return false }
        for k in needle.indices where Self.lower(bytes[i + k]) != needle[k] { return false }
        return true
    }

    /// Whether a tag name ends at `i`: a space, `/`, `>` or the end of the file.
    private func endsName(at i: Int) -> Bool {
        i >= bytes.count || Self.isSpace(bytes[i]) || bytes[i] == UInt8(ascii: "/") || bytes[i] == UInt8(ascii: ">")
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D }
    private static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") }
    private static func lower(_ b: UInt8) -> UInt8 { b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b | 0x20 : b }
    private static func lowercased(_ slice: ArraySlice<UInt8>) -> String { String(decoding: slice.map(lower), as: UTF8.self) }
}

extension String {
    /// The text without leading and trailing ASCII whitespace.
    fileprivate var trimmed: Substring {
        let space: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }
        guard let first = firstIndex(where: { !space($0) }), let last = lastIndex(where: { !space($0) }) else { return "" }
        return self[first...last]
    }
}
