import Findings
import Foundation
import TemplateSyntax

/// What part of a template a template rule's `pattern-regex` reads.
public enum TemplateConstruct: String, Sendable, Hashable, CaseIterable {
    /// A `{{ ... }}` output: the expression with its filters (`note.text | safe`).
    case output
    /// A `{% ... %}` tag: its name and arguments (`autoescape off`).
    case tag
    /// An HTML element: its start tag and, for `form`, `script` and `style`, its content up to the
    /// end tag (`<form method="post">...`).
    case element
}

/// A rule over templates (`languages: [template]`, format in `rules/README.md`): a regular
/// expression searched in one kind of construct, with conditions on where the construct is.
public struct TemplateRule: Sendable, Hashable {
    /// Unique id, `template.<name>`.
    public var id: String
    /// The finding message.
    public var message: String
    /// Severity of the findings.
    public var severity: Severity
    /// How likely a finding is real.
    public var confidence: Confidence
    /// CWE ids.
    public var cwe: [Int]
    /// The construct the expressions read.
    public var construct: TemplateConstruct
    /// `pattern-regex`: searched in the construct's text; each match is a finding.
    public var regex: TemplateRegex
    /// `pattern-not-regex`: a construct whose text holds a match of one of these is skipped.
    public var notRegexes: [TemplateRegex]
    /// `context`: for outputs, the HTML contexts the rule applies in (nil: any).
    public var contexts: Set<OutputContext>?
    /// `autoescaped`: for outputs, only those inside (false) or outside (true) an
    /// `{% autoescape off %}` block (nil: either).
    public var autoescaped: Bool?
    /// `elements`: for elements, the element names the rule reads (nil: any).
    public var elements: Set<String>?
    /// `frameworks` and `project-not-regex`: the projects the rule applies in.
    public var scope: ProjectScope
    /// `fix-regex`: the rewrite of a match (nil: the rule has none).
    public var fix: TemplateFix? = nil
    /// `metadata.references`.
    public var references: [String]
    /// `metadata.bandit`.
    public var banditIds: [String]
    /// `metadata.semgrep`.
    public var semgrepIds: [String]
    /// The file the rule came from.
    public var file: String

    /// The SARIF metadata of this rule.
    public var descriptor: RuleDescriptor {
        .native(
            id: id, message: message, references: references, severity: severity, cwe: cwe, confidence: confidence,
            tags: ["template"])
    }
}

/// A template rule's rewrite (Semgrep's `fix-regex`): within the text a finding matched, the first
/// match of `regex` is replaced by `replacement` (`\1` names a group, as in Semgrep; `$` is literal). A finding whose match
/// the expression does not match, or that it would leave unchanged, gets no fix: so one rule's
/// alternatives can have a rewrite or none (`| safe` is dropped, `Markup(` is left to a person).
public struct TemplateFix: Sendable, Hashable {
    /// The expression searched in the matched text.
    public var regex: TemplateRegex
    /// What replaces its first match, in NSRegularExpression's template syntax (`$1`).
    public var replacement: String

    /// A rewrite of `regex`'s first match by `replacement` (Semgrep's `\N` groups become `$N`;
    /// a literal `$` is escaped).
    public init(regex: TemplateRegex, replacement: String) {
        self.regex = regex
        var template = ""
        var characters = replacement.makeIterator()
        while let c = characters.next() {
            switch c {
            case "\\":
                guard let next = characters.next() else { template += "\\\\"; break }
                if next.isASCII, next.isNumber { template += "$" + String(next) } else { template += "\\" + String(next) }
            case "$": template += "\\$"
            default: template.append(c)
            }
        }
        self.replacement = template
    }

    /// `text` rewritten; nil when the expression does not match it or the rewrite changes nothing.
    public func apply(to text: String) -> String? {
        guard let expression = regex.expression,
            let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..<text.endIndex, in: text))
        else { return nil }
        let rewritten = expression.replacementString(for: match, in: text, offset: 0, template: replacement)
        let whole = NSMutableString(string: text)
        whole.replaceCharacters(in: match.range, with: rewritten)
        let out = whole as String
        return out == text ? nil : out
    }
}

/// A regular expression searched anywhere in a text (Semgrep's `pattern-regex`), compiled once.
/// NSRegularExpression is immutable and documented thread-safe.
public struct TemplateRegex: Sendable, Hashable {
    /// The expression as written.
    public let source: String
    private let box: CompiledRegex
    /// Literal text every match contains: a `project-not-regex` is searched in every Python file,
    /// and most hold none of its words.
    private var literals: RegexLiterals { box.literals }

    /// Compiles `source` (Python's `(?P<NAME>` groups are accepted); throws when it is invalid.
    /// `checked`: it was compiled before (``CompiledRegex``), so it is compiled at its first use.
    public init(source: String, checked: Bool = false) throws {
        self.init(try PreparedRegex(source: source, checked: checked, trees: nil))
    }

    /// The expression ``PatternTrees/regex(source:checked:)`` prepared.
    init(_ prepared: PreparedRegex) {
        source = prepared.source
        box = prepared.compiled
    }

    /// The UTF-16 ranges of every non-overlapping match in `text`.
    func matches(in text: String) -> [NSRange] {
        guard literals.mayMatch(text), let regex = box.regex else { return [] }
        return regex.matches(in: text, range: NSRange(text.startIndex..<text.endIndex, in: text)).map(\.range)
    }

    /// The compiled expression (nil: it does not compile, which the loader has ruled out).
    var expression: NSRegularExpression? { box.regex }

    /// Whether `text` holds a match.
    public func occurs(in text: String) -> Bool { box.occurs(in: text) }

    /// Two expressions are equal when their source texts are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.source == rhs.source }
    /// Hashes the source text.
    public func hash(into hasher: inout Hasher) { hasher.combine(source) }
}
