import TemplateSyntax

/// What a template binds by itself, so that an output can be traced to the variable of the
/// view's context it starts from (`{% for note in notes %}…{{ note.text|safe }}`: `notes`), and
/// the templates it includes, extends or imports (which then receive a context from it).
///
/// Jinja2 and Django: `for`, `set`, `with` (both spellings). Tags are read file-wide without
/// their nesting: a name bound twice keeps its first binding. A macro's parameters are bound by
/// its callers: an output from one is judged as a variable no view passes.
struct TemplateBindings {
    /// What a name a tag binds holds: the context variable its expression starts from, or
    /// nothing from the context (a call such as Flask's `get_flashed_messages()`, a literal).
    enum Bound: Equatable {
        case variable(String)
        case notFromContext
    }

    private(set) var bound: [String: Bound] = [:]
    /// The templates this one includes, extends or imports, in order.
    private(set) var references: [TemplateReference] = []
    /// The parameters of the file's macros (`{% macro field(form, label=None) %}`): what the
    /// macros' callers pass them.
    private(set) var macroParameters: Set<String> = []
    /// The bodies of the file's `{% partialdef name %}` … `{% endpartialdef %}` blocks (Django
    /// template-partials), by name.
    private(set) var partials: [String: String] = [:]

    init(_ document: TemplateDocument) {
        var openPartial: (name: String, start: Int)?
        for tag in document.tags {
            if tag.name == "partialdef" {
                let words = document.text(tag.content).split(separator: " ")
                if words.count > 1 { openPartial = (String(words[1]), tag.range.upperBound) }
                continue
            }
            if tag.name == "endpartialdef", let open = openPartial {
                partials[open.name] = document.text(open.start..<max(open.start, tag.range.lowerBound))
                openPartial = nil
                continue
            }
            let content = document.text(tag.content)
            let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            guard let first = words.first?.lowercased() else { continue }
            switch first {
            case "include", "extends", "import", "from":
                if let reference = TemplateReference.read(TemplateReference.words(of: content)) { references.append(reference) }
            case "macro":
                macroParameters.formUnion(Self.parameters(ofMacro: content))
            case "for":
                // `for a, b in expr`: the names before `in` hold parts of what `expr` holds.
                guard let inIndex = words.firstIndex(of: "in"), inIndex > 1 else { continue }
                let names = words[1..<inIndex].joined().split(separator: ",").map(String.init)
                let expression = words[(inIndex + 1)...].joined(separator: " ")
                for name in names { bind(name, to: expression) }
            case "set", "with":
                let rest = content.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }.dropFirst(first.count)
                if let asIndex = words.lastIndex(of: "as"), asIndex == words.count - 2 {
                    // Django's old `{% with expr as name %}`.
                    bind(String(words[asIndex + 1]), to: words[1..<asIndex].joined(separator: " "))
                } else {
                    // `set a = expr`, `with a = x, b = y`, Django's `with a=x b=y`.
                    for assignment in Self.assignments(String(rest)) { bind(assignment.name, to: assignment.expression) }
                }
            default:
                continue
            }
        }
    }

    /// `text` followed by the bodies of the partials its `{% partial name %}` tags render.
    func withPartials(_ text: String) -> String {
        guard !partials.isEmpty, text.contains("partial") else { return text }
        var out = text
        // Each `{% partial name %}` by its exact name (`form` is not `form_body`).
        var rest = text[...]
        while let open = rest.range(of: "{%") {
            guard let close = rest[open.upperBound...].range(of: "%}") else { break }
            let words = rest[open.upperBound..<close.lowerBound].split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "\n" })
            if words.count > 1, words[0] == "partial", let body = partials[String(words[1])] { out += "\n" + body }
            rest = rest[close.upperBound...]
        }
        return out
    }

    /// The context variable `root` (the variable an output starts from) holds part of, through
    /// the template's own bindings; nil when it holds nothing from the context.
    func contextVariable(from root: String) -> String? {
        var name = root
        for _ in 0..<8 {
            switch bound[name] {
            case nil: return name
            case .notFromContext?: return nil
            case .variable(let next)?:
                if next == name { return name }
                name = next
            }
        }
        return name
    }

    private mutating func bind(_ name: String, to expression: String) {
        let name = name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, bound[name] == nil else { return }
        // (Flashed messages, `get_flashed_messages()`, are not from the context: like any call's
        // result they are judged where they are, not by what the views pass.)
        if let root = TemplateEngine.rootVariable(of: expression) {
            bound[name] = .variable(root)
        } else {
            bound[name] = .notFromContext
        }
    }

    /// The parameter names of `macro name(a, b=1, *args, **kwargs)`.
    private static func parameters(ofMacro content: String) -> [String] {
        guard let open = content.firstIndex(of: "("), let close = content.lastIndex(of: ")"), open < close else { return [] }
        return content[content.index(after: open)..<close].split(separator: ",").compactMap { parameter in
            let name = parameter.prefix { $0 != "=" }.trimmingCharacters(in: .whitespaces).drop { $0 == "*" }
            return name.isEmpty ? nil : String(name)
        }
    }

    /// The `name = expression` pairs of a `set`/`with` tag's arguments, split at top-level
    /// commas or, Django's way, at spaces between `name=value` pairs.
    private static func assignments(_ text: String) -> [(name: String, expression: String)] {
        var out: [(String, String)] = []
        var depth = 0
        var part = ""
        var parts: [String] = []
        for character in text {
            switch character {
            case "(", "[", "{": depth += 1
            case ")", "]", "}": depth = max(0, depth - 1)
            default: break
            }
            if character == ",", depth == 0 {
                parts.append(part)
                part = ""
            } else {
                part.append(character)
            }
        }
        parts.append(part)
        for piece in parts {
            let words = piece.split(separator: " ", omittingEmptySubsequences: true)
            if words.count > 1, words.allSatisfy({ $0.contains("=") && !$0.hasPrefix("=") && !$0.hasSuffix("=") }) {
                // Django's `with a=x b=y`: each word a `name=value` pair.
                for word in words {
                    let pair = word.split(separator: "=", maxSplits: 1)
                    out.append((String(pair[0]), String(pair[1])))
                }
                continue
            }
            guard let equals = piece.firstIndex(of: "=") else { continue }
            let name = piece[..<equals].trimmingCharacters(in: .whitespaces)
            let expression = piece[piece.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if let last = name.split(separator: " ").last { out.append((String(last), expression)) }
        }
        return out
    }
}
