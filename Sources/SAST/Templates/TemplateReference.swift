/// One `{% include %}`, `{% extends %}`, `{% import %}` or `{% from ... import %}` of a template:
/// the template it names and what it hands that template besides the referrer's own context.
public struct TemplateReference: Sendable, Hashable {
    /// The referenced template's name, as written (`"inc/banner.html"`).
    public var name: String
    /// The variables the tag binds for the referenced template (Django's `with a=expr b=expr2`),
    /// each to its expression as written in the referrer.
    public var bindings: [String: String] = [:]
    /// Whether the referenced template sees only `bindings`, not the referrer's context: Django's
    /// `only`, Jinja2's `without context`, and Jinja2's `import`/`from` unless `with context`
    /// (an imported template's macros see only their arguments and the globals).
    public var isolated = false

    /// A reference to `name`.
    public init(name: String, bindings: [String: String] = [:], isolated: Bool = false) {
        self.name = name
        self.bindings = bindings
        self.isolated = isolated
    }

    /// The reference a tag makes (`words`: the tag's words, its keyword first, as
    /// ``TemplateReference/words(of:)`` splits them); nil when it names no template literally
    /// (`{% include template_name %}`) or is no reference.
    static func read(_ words: [String]) -> TemplateReference? {
        guard let keyword = words.first?.lowercased(), ["include", "extends", "import", "from"].contains(keyword),
            words.count > 1, let name = quoted(words[1])
        else { return nil }
        var reference = TemplateReference(name: name, isolated: keyword == "import" || keyword == "from")
        var index = 2
        while index < words.count {
            let word = words[index]
            let next = index + 1 < words.count ? words[index + 1] : ""
            switch word {
            case "only":
                reference.isolated = true
            case "without" where next == "context":
                reference.isolated = true
                index += 1
            case "with" where next == "context":
                reference.isolated = false
                index += 1
            default:
                // Django's `with a=expr b=expr2` (the `with` itself is skipped above as a plain word).
                if let equals = word.firstIndex(of: "="), equals != word.startIndex, word.index(after: equals) != word.endIndex {
                    let variable = String(word[..<equals])
                    if variable.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }) {
                        reference.bindings[variable] = String(word[word.index(after: equals)...])
                    }
                }
            }
            index += 1
        }
        return reference
    }

    /// The words of a tag's content, split at whitespace outside quotes and brackets (so that
    /// `with title="a b"` keeps its value whole).
    static func words(of content: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quote: Character?
        var depth = 0
        for character in content {
            if let open = quote {
                word.append(character)
                if character == open { quote = nil }
                continue
            }
            switch character {
            case "\"", "'":
                quote = character
            case "(", "[", "{":
                depth += 1
            case ")", "]", "}":
                depth = max(0, depth - 1)
            case " ", "\t", "\n", "\r":
                guard depth == 0 else { break }
                if !word.isEmpty { words.append(word) }
                word = ""
                continue
            default:
                break
            }
            word.append(character)
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    /// `"x.html"` or `'x.html'` without its quotes; nil for anything else (a variable).
    static func quoted(_ word: String) -> String? {
        guard word.count >= 2, let quote = word.first, quote == "\"" || quote == "'", word.last == quote else { return nil }
        return String(word.dropFirst().dropLast())
    }
}
