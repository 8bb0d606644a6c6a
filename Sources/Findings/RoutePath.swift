/// The parameters a route's path names, in the spellings of the frameworks: Flask's
/// `<name>`/`<int:name>`, FastAPI's and Starlette's `{name}`/`{name:path}`, Express's `:name`.
public enum RoutePath {
    /// The names in `path`, in order.
    public static func names(in path: String) -> [String] {
        parameters(in: path).map(\.name)
    }

    /// One parameter of a path: its name and the range of its whole placeholder.
    public struct Parameter: Sendable, Hashable {
        /// `id` of `<int:id>`.
        public var name: String
        /// The converter or type, when the path gives one (`int`, `path`).
        public var converter: String?
        /// The placeholder's characters in the path.
        public var range: Range<String.Index>
    }

    /// The placeholders of `path`, in order.
    public static func parameters(in path: String) -> [Parameter] {
        var found: [Parameter] = []
        var index = path.startIndex
        while index < path.endIndex {
            let character = path[index]
            if character == "<" || character == "{", let close = path[index...].firstIndex(of: character == "<" ? ">" : "}") {
                let inner = path[path.index(after: index)..<close]
                let parts = inner.split(separator: ":", maxSplits: 1).map(String.init)
                // Flask writes the converter first (`<int:id>`), Starlette after (`{id:int}`).
                let (name, converter) =
                    character == "<"
                    ? (parts.count == 2 ? (parts[1], parts[0]) : (parts.first ?? "", nil))
                    : (parts.first ?? "", parts.count == 2 ? parts[1] : nil)
                if !name.isEmpty { found.append(Parameter(name: name, converter: converter, range: index..<path.index(after: close))) }
                index = path.index(after: close)
            } else if character == ":", index == path.startIndex || path[path.index(before: index)] == "/" {
                var end = path.index(after: index)
                while end < path.endIndex, path[end].isLetter || path[end].isNumber || path[end] == "_" { end = path.index(after: end) }
                let name = String(path[path.index(after: index)..<end])
                if !name.isEmpty { found.append(Parameter(name: name, converter: nil, range: index..<end)) }
                index = end
            } else {
                index = path.index(after: index)
            }
        }
        return found
    }
}

extension RoutePath {
    /// `path` with every placeholder filled with `value`, and the index of the `/`-separated
    /// segment that holds `parameter`'s (index 0 is before the first `/`), nil when the path
    /// does not name it.
    public static func filled(_ path: String, with value: String, marking parameter: String) -> (path: String, segment: Int?) {
        var segment: Int?
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).enumerated().map { index, part -> String in
            let text = String(part)
            let placeholders = parameters(in: text)
            guard !placeholders.isEmpty else { return text }
            if placeholders.contains(where: { $0.name == parameter }) { segment = index }
            var filled = text
            for placeholder in placeholders.reversed() { filled.replaceSubrange(placeholder.range, with: value) }
            return filled
        }
        return (parts.joined(separator: "/"), segment)
    }
}

extension RoutePath {
    /// A URL pattern as a path: Django's `path()` text as it is (`polls/<int:id>/`); a regular
    /// expression of `re_path()`, `url()` or a Tornado spec read as one when it is a literal path
    /// with groups (`^polls/(?P<id>\d+)/$`: `polls/<id>/`; an unnamed group, Tornado's
    /// positional argument: `<_1>`, `<_2>`, ...); nil for any other expression (an alternation,
    /// a class, a repeat outside a group), whose paths cannot be written out.
    public static func fromPattern(_ pattern: String) -> String? {
        var text = Substring(pattern)
        if text.hasPrefix("^") { text = text.dropFirst() }
        if text.hasSuffix("$") && !text.hasSuffix("\\$") { text = text.dropLast() }
        guard text.contains(where: { "()[]*+?|{}\\^$".contains($0) }) else { return String(text) }
        var out = ""
        var unnamed = 0
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            switch character {
            case "(":
                guard let close = closingParenthesis(text, from: index) else { return nil }
                let inner = text[text.index(after: index)..<close]
                if inner.hasPrefix("?P<"), let end = inner.firstIndex(of: ">") {
                    out += "<" + inner[inner.index(inner.startIndex, offsetBy: 3)..<end] + ">"
                } else if inner.hasPrefix("?") {
                    return nil
                } else {
                    unnamed += 1
                    out += "<_\(unnamed)>"
                }
                index = text.index(after: close)
            case "\\":
                let next = text.index(after: index)
                guard next < text.endIndex, "./-_~:".contains(text[next]) else { return nil }
                out.append(text[next])
                index = text.index(after: next)
            case "[", "]", "*", "+", "?", "|", "{", "}", "^", "$", ")":
                return nil
            default:
                out.append(character)
                index = text.index(after: index)
            }
        }
        return out
    }

    /// The `)` that closes the group opening at `open`, through nested groups and escapes.
    private static func closingParenthesis(_ text: Substring, from open: Substring.Index) -> Substring.Index? {
        var depth = 0
        var index = open
        while index < text.endIndex {
            switch text[index] {
            case "\\":
                index = text.index(after: index)
                if index == text.endIndex { return nil }
            case "(":
                depth += 1
            case ")":
                depth -= 1
                if depth == 0 { return index }
            default:
                break
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// `prefix` and `path` joined as URL paths (Django's patterns have no leading `/`):
    /// `("polls/", "<int:id>/")` is `/polls/<int:id>/`.
    public static func joined(_ prefix: String, _ path: String) -> String {
        let head = prefix.hasPrefix("/") ? prefix : "/" + prefix
        if head.hasSuffix("/") { return head + (path.hasPrefix("/") ? String(path.dropFirst()) : path) }
        return head + (path.hasPrefix("/") || path.isEmpty ? path : "/" + path)
    }
}

/// A route of the scanned code, where a web finding's URL can be placed: its path as the code
/// writes it, its methods, and the handler's file and line.
public struct RouteLocation: Sendable, Hashable {
    /// The path (`/notes/<int:id>`, `/users/:id`).
    public var path: String
    /// The methods it answers (empty: not said).
    public var methods: [String]
    /// The handler's file, relative to the scan root.
    public var file: String
    /// The handler's line.
    public var line: Int

    /// A route; see the properties.
    public init(path: String, methods: [String], file: String, line: Int) {
        self.path = path
        self.methods = methods
        self.file = file
        self.line = line
    }
}

extension RoutePath {
    /// Whether the URL path `path` is one `route` serves: each placeholder one segment (Flask's
    /// `path` converter and Starlette's `:path` the rest), every other segment equal; a trailing
    /// `/` on either side does not matter.
    public static func matches(_ route: String, _ path: String) -> Bool {
        func segments(_ text: String) -> [Substring] {
            var parts = text.split(separator: "/", omittingEmptySubsequences: false)
            if parts.first == "" { parts.removeFirst() }
            if parts.last == "", !parts.isEmpty { parts.removeLast() }
            return parts
        }
        let want = segments(route)
        let got = segments(path)
        var index = 0
        for part in want {
            let placeholders = parameters(in: String(part))
            if let only = placeholders.first, placeholders.count == 1, String(part)[only.range] == part {
                if only.converter == "path" { return index < got.count }
                guard index < got.count, !got[index].isEmpty else { return false }
            } else if !placeholders.isEmpty {
                // A segment that mixes text and a placeholder (`item-<id>`): its text around it.
                guard index < got.count, matchesMixed(String(part), String(got[index]), placeholders) else { return false }
            } else {
                guard index < got.count, got[index] == part else { return false }
            }
            index += 1
        }
        return index == got.count
    }

    private static func matchesMixed(_ segment: String, _ value: String, _ placeholders: [Parameter]) -> Bool {
        guard let first = placeholders.first, let last = placeholders.last else { return segment == value }
        let head = String(segment[..<first.range.lowerBound])
        let tail = String(segment[last.range.upperBound...])
        return value.hasPrefix(head) && value.hasSuffix(tail) && value.count > head.count + tail.count
    }
}
