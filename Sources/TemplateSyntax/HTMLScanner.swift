/// Follows the HTML around a template's tokens, as a browser's tokenizer would (simplified): in
/// text, in a tag, in an attribute value (quoted or not), in a comment, in `<script>`/`<style>`
/// raw text. Template outputs take the context they land in; template tags leave it unchanged.
struct HTMLScanner {
    private enum State: Equatable {
        case data, tagName, beforeAttributeName, attributeName, afterAttributeName, beforeAttributeValue
        case attributeValue(quote: UInt8), unquotedValue, endTag, comment, bogus, rawText
    }

    private let bytes: [UInt8]
    private let maxElements: Int
    private var state = State.data
    /// The start tag being read: its name, start, attributes, and the attribute being read.
    private var element: HTMLElement?
    private var attributeName: [UInt8] = []
    private var valueStart = 0
    /// The element whose raw text (`script`, `style`, `textarea`, `title`) is being read.
    private var rawElement: (index: Int?, name: [UInt8])?
    private var openForms: [Int] = []
    private var commentStart = 0
    private var autoescape: [Bool] = []
    /// Inside `<script>`: whether in code, a string literal or a comment (a small JavaScript lexer:
    /// enough to tell `var x = "{{ v }}"` from `{{ v }}` as code).
    private var script = ScriptState.code

    private enum ScriptState: Equatable {
        case code, lineComment, blockComment
        case string(quote: UInt8)
    }
    private(set) var outputs: [TemplateOutput] = []
    private(set) var tags: [TemplateTag] = []
    private(set) var elements: [HTMLElement] = []
    private(set) var comments: [Range<Int>] = []
    private(set) var problems: [TemplateProblem] = []

    /// URL-valued attributes: escaping keeps markup out, not a `javascript:` URL.
    static let urlAttributes: Set<String> = [
        "href", "src", "action", "formaction", "data", "poster", "background", "cite", "codebase", "srcdoc", "xlink:href",
    ]
    /// Elements whose content the tokenizer reads as raw text up to their end tag.
    private static let rawTextElements: Set<String> = ["script", "style", "textarea", "title", "xmp"]

    init(bytes: [UInt8], maxElements: Int) {
        self.bytes = bytes
        self.maxElements = maxElements
    }

    mutating func run(_ tokens: [TemplateToken]) {
        for token in tokens {
            switch token.kind {
            case .text: scanText(token.range)
            case .output: output(token)
            case .tag: tag(token)
            case .comment: break
            }
        }
        // Unclosed forms and raw text end with the input.
        for index in openForms { elements[index].body = elements[index].range.upperBound..<bytes.count }
        if let raw = rawElement, let index = raw.index { elements[index].body = elements[index].range.upperBound..<bytes.count }
        if let open = element {
            problems.append(TemplateProblem(offset: open.range.lowerBound, message: "unterminated <\(open.name)> tag"))
            finishStartTag(at: bytes.count)
        }
        if state == .comment { comments.append(commentStart..<bytes.count) }
    }

    // MARK: - Template tokens

    private mutating func output(_ token: TemplateToken) {
        let attribute = String(decoding: attributeName, as: UTF8.self).lowercased()
        let context: OutputContext
        var inAttribute = false
        switch state {
        case .data, .bogus: context = .text
        case .comment: context = .comment
        case .rawText:
            let name = String(decoding: rawElement?.name ?? [], as: UTF8.self)
            // A JavaScript comment is code for an output: a line break in the value ends it.
            let inString = if case .string = script { true } else { false }
            context = name == "script" ? (inString ? .scriptString : .script) : name == "style" ? .style : .text
        case .tagName, .beforeAttributeName, .attributeName, .afterAttributeName, .endTag: context = .tag
        case .beforeAttributeValue, .unquotedValue:
            if state == .beforeAttributeValue {
                valueStart = token.range.lowerBound
                state = .unquotedValue
            }
            context = Self.context(ofAttribute: attribute, quoted: false, startsValue: valueStart == token.range.lowerBound)
            inAttribute = true
        case .attributeValue:
            context = Self.context(ofAttribute: attribute, quoted: true, startsValue: valueStart == token.range.lowerBound)
            inAttribute = true
        }
        outputs.append(
            TemplateOutput(
                range: token.range, expression: token.inner, context: context, attribute: inAttribute ? attribute : nil,
                autoescaped: autoescape.last ?? true))
    }

    /// The context of an output in attribute `name`'s value; a URL attribute counts as one only
    /// when the output starts the value (after `/user/` it is a path, no `javascript:` URL).
    static func context(ofAttribute name: String, quoted: Bool, startsValue: Bool) -> OutputContext {
        if name.hasPrefix("on") { return .eventAttribute }
        if name == "style" { return .style }
        if urlAttributes.contains(name) && startsValue { return .urlAttribute }
        return quoted ? .attribute : .unquotedAttribute
    }

    private mutating func tag(_ token: TemplateToken) {
        let name = TemplateText.firstWord(bytes, token.inner)
        tags.append(TemplateTag(range: token.range, content: token.inner, name: name))
        switch name {
        case "autoescape":
            var argument = token.inner.lowerBound + name.utf8.count
            while argument < token.inner.upperBound, TemplateLexer.isSpace(bytes[argument]) { argument += 1 }
            let value = TemplateText.firstWord(bytes, argument..<token.inner.upperBound)
            autoescape.append(!(value == "off" || value == "false"))
        case "endautoescape":
            if !autoescape.isEmpty { autoescape.removeLast() }
        default: break
        }
    }

    // MARK: - HTML

    private mutating func scanText(_ range: Range<Int>) {
        var i = range.lowerBound
        while i < range.upperBound {
            i = step(at: i, end: range.upperBound)
        }
    }

    /// Consumes the byte(s) at `i` in the current state; returns the next offset.
    private mutating func step(at i: Int, end: Int) -> Int {
        let byte = bytes[i]
        switch state {
        case .data:
            guard byte == UInt8(ascii: "<"), i + 1 < bytes.count else { return i + 1 }
            let next = bytes[i + 1]
            if Self.isLetter(next) {
                guard elements.count < maxElements else {
                    if problems.last?.message.hasPrefix("more than") != true {
                        problems.append(
                            TemplateProblem(
                                offset: i, message: "more than \(maxElements) HTML elements; the rest is not analysed",
                                isBound: true))
                    }
                    return i + 1
                }
                element = HTMLElement(name: "", range: i..<i, attributes: [], body: nil)
                state = .tagName
                return i + 1
            }
            if next == UInt8(ascii: "/") {
                state = .endTag
                closeForm(at: i)
                return i + 2
            }
            if hasPrefix("<!--", at: i) {
                state = .comment
                commentStart = i
                return i + 4
            }
            if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") {
                state = .bogus
                return i + 2
            }
            return i + 1
        case .tagName:
            if Self.isSpace(byte) || byte == UInt8(ascii: "/") {
                state = .beforeAttributeName
            } else if byte == UInt8(ascii: ">") {
                finishStartTag(at: i + 1)
            } else {
                element?.name.append(Character(Unicode.Scalar(byte | (Self.isUpper(byte) ? 0x20 : 0))))
            }
            return i + 1
        case .beforeAttributeName:
            if byte == UInt8(ascii: ">") {
                finishStartTag(at: i + 1)
            } else if !Self.isSpace(byte) && byte != UInt8(ascii: "/") {
                attributeName = [Self.lower(byte)]
                state = .attributeName
            }
            return i + 1
        case .attributeName:
            if byte == UInt8(ascii: "=") {
                state = .beforeAttributeValue
            } else if byte == UInt8(ascii: ">") {
                addAttribute(value: nil)
                finishStartTag(at: i + 1)
            } else if Self.isSpace(byte) || byte == UInt8(ascii: "/") {
                state = .afterAttributeName
            } else {
                attributeName.append(Self.lower(byte))
            }
            return i + 1
        case .afterAttributeName:
            if byte == UInt8(ascii: "=") {
                state = .beforeAttributeValue
            } else if byte == UInt8(ascii: ">") {
                addAttribute(value: nil)
                finishStartTag(at: i + 1)
            } else if !Self.isSpace(byte) && byte != UInt8(ascii: "/") {
                addAttribute(value: nil)
                attributeName = [Self.lower(byte)]
                state = .attributeName
            }
            return i + 1
        case .beforeAttributeValue:
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                state = .attributeValue(quote: byte)
                valueStart = i + 1
            } else if byte == UInt8(ascii: ">") {
                addAttribute(value: i..<i)
                finishStartTag(at: i + 1)
            } else if !Self.isSpace(byte) {
                state = .unquotedValue
                valueStart = i
            }
            return i + 1
        case .attributeValue(let quote):
            if byte == quote {
                addAttribute(value: valueStart..<i)
                state = .beforeAttributeName
            }
            return i + 1
        case .unquotedValue:
            if Self.isSpace(byte) {
                addAttribute(value: valueStart..<i)
                state = .beforeAttributeName
            } else if byte == UInt8(ascii: ">") {
                addAttribute(value: valueStart..<i)
                finishStartTag(at: i + 1)
            }
            return i + 1
        case .endTag, .bogus:
            if byte == UInt8(ascii: ">") { state = .data }
            return i + 1
        case .comment:
            if hasPrefix("-->", at: i) {
                comments.append(commentStart..<(i + 3))
                state = .data
                return i + 3
            }
            return i + 1
        case .rawText:
            guard byte == UInt8(ascii: "<"), let raw = rawElement, isEndTag(of: raw.name, at: i) else {
                return rawElement?.index != nil ? scriptStep(at: i) : i + 1
            }
            script = .code
            if let index = raw.index { elements[index].body = elements[index].range.upperBound..<i }
            rawElement = nil
            state = .endTag
            return i + 2
        }
    }

    /// Follows JavaScript strings and comments in `<script>`; returns the next offset.
    private mutating func scriptStep(at i: Int) -> Int {
        let byte = bytes[i]
        let next = i + 1 < bytes.count ? bytes[i + 1] : 0
        switch script {
        case .code:
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "`") {
                script = .string(quote: byte)
            } else if byte == UInt8(ascii: "/") && next == UInt8(ascii: "/") {
                script = .lineComment
                return i + 2
            } else if byte == UInt8(ascii: "/") && next == UInt8(ascii: "*") {
                script = .blockComment
                return i + 2
            }
        case .string(let quote):
            if byte == UInt8(ascii: "\\") { return i + 2 }
            if byte == quote || (byte == 10 && quote != UInt8(ascii: "`")) { script = .code }
        case .lineComment:
            if byte == 10 { script = .code }
        case .blockComment:
            if byte == UInt8(ascii: "*") && next == UInt8(ascii: "/") {
                script = .code
                return i + 2
            }
        }
        return i + 1
    }

    private mutating func addAttribute(value: Range<Int>?) {
        guard !attributeName.isEmpty else { return }
        element?.attributes.append(HTMLAttribute(name: String(decoding: attributeName, as: UTF8.self), value: value))
        attributeName = []
    }

    private mutating func finishStartTag(at end: Int) {
        guard var done = element else { return }
        if !attributeName.isEmpty { addAttribute(value: nil) }
        done.range = done.range.lowerBound..<end
        element = nil
        state = .data
        let index = elements.count
        elements.append(done)
        if done.name == "form" { openForms.append(index) }
        if Self.rawTextElements.contains(done.name) {
            let keepsBody = done.name == "script" || done.name == "style"
            rawElement = (keepsBody ? index : nil, Array(done.name.utf8))
            script = .code
            state = .rawText
        }
    }

    /// At `</form`: the innermost open form ends here.
    private mutating func closeForm(at i: Int) {
        guard isEndTag(of: Array("form".utf8), at: i), let index = openForms.popLast() else { return }
        elements[index].body = elements[index].range.upperBound..<i
    }

    /// Whether `</name` (any case) followed by a space, `/` or `>` starts at `i`.
    private func isEndTag(of name: [UInt8], at i: Int) -> Bool {
        let end = i + 2 + name.count
        guard end <= bytes.count, bytes[i] == UInt8(ascii: "<"), bytes[i + 1] == UInt8(ascii: "/") else { return false }
        for (k, byte) in name.enumerated() where Self.lower(bytes[i + 2 + k]) != byte { return false }
        return end == bytes.count || Self.isSpace(bytes[end]) || bytes[end] == UInt8(ascii: ">") || bytes[end] == UInt8(ascii: "/")
    }

    private func hasPrefix(_ text: String, at i: Int) -> Bool {
        let needle = Array(text.utf8)
        return i + needle.count <= bytes.count && bytes[i..<(i + needle.count)].elementsEqual(needle)
    }

    private static func isLetter(_ byte: UInt8) -> Bool { byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A }
    private static func isUpper(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
    private static func lower(_ byte: UInt8) -> UInt8 { isUpper(byte) ? byte | 0x20 : byte }
    private static func isSpace(_ byte: UInt8) -> Bool { TemplateLexer.isSpace(byte) }
}
