import Findings
import PythonSyntax

/// Exceptions the project defines and raises only with its own literal messages
/// (`raise SubmissionError(_("This session is full."))`): their text is the application's,
/// written for the user, so showing it is not exposing internals. A finding of a rule that says
/// how sure it is there (`application-errors-confidence`) inside an `except` clause catching
/// only such exceptions is lowered to that confidence (issue 55). One raise of a message the
/// code does not spell (`raise ProviderError(f"failed: {response.text}")`), in the class or a
/// subclass of the project, keeps the finding.
public enum ApplicationErrors {
    /// What one file says about exceptions.
    public struct FileFacts: Sendable {
        /// The classes the file defines, with the last parts of their bases' names.
        var classes: [String: [String]] = [:]
        /// For each class raised by the last part of its name, whether every raise passes only
        /// messages the code spells (string literals, translated literals, or none).
        var spelledRaises: [String: Bool] = [:]
        /// The file's `except` clauses: their lines and the last parts of the types they catch
        /// (empty: a bare `except:` or a type expression that is not a name).
        var clauses: [Clause] = []
    }

    /// One `except` clause.
    struct Clause: Sendable {
        var lines: ClosedRange<Int>
        var types: [String]
    }

    /// The facts of the file whose tree is `root`.
    static func facts(of root: SyntaxNode) -> FileFacts {
        var facts = FileFacts()
        root.walk { node in
            switch node.kind {
            case .classDef:
                if let name = node.text {
                    let bases = node.children.count > 2 ? node.children[2].children.compactMap(\.dottedName).map(FileIndex.lastSegment) : []
                    facts.classes[name, default: []] += bases
                }
            case .raise:
                guard let raised = node.children.first, raised.kind != .empty else { break }
                let callee = raised.kind == .call ? raised.children.first : raised
                guard let dotted = callee?.dottedName else { break }
                let spelled = raised.kind != .call || raised.children.dropFirst().allSatisfy(isSpelled)
                let raisedName = FileIndex.lastSegment(dotted)
                facts.spelledRaises[raisedName] = (facts.spelledRaises[raisedName] ?? true) && spelled
            case .exceptHandler:
                guard let type = node.children.first else { break }
                let types: [String]
                switch type.kind {
                case .tuple:
                    let names = type.children.compactMap(\.dottedName)
                    types = names.count == type.children.count ? names.map(FileIndex.lastSegment) : []
                case .empty: types = []
                default: types = type.dottedName.map { [FileIndex.lastSegment($0)] } ?? []
                }
                facts.clauses.append(Clause(lines: node.range.start.line...max(node.range.start.line, node.range.end.line), types: types))
            default:
                break
            }
            return true
        }
        return facts
    }

    /// `findings` with those of `rules` that set `application-errors-confidence` lowered to it
    /// where the innermost `except` clause around them catches only the project's own
    /// literal-message exceptions; the message says so.
    public static func placed(_ findings: [Finding], facts: [String: FileFacts], rules: [Rule]) -> [Finding] {
        let confidences = Dictionary(
            rules.compactMap { rule in rule.applicationErrorsConfidence.map { (rule.id, $0) } }, uniquingKeysWith: { a, _ in a })
        guard !confidences.isEmpty, findings.contains(where: { confidences[$0.ruleId] != nil }) else { return findings }
        let project = Project(facts.values)
        return findings.map { finding in
            guard let confidence = confidences[finding.ruleId], finding.confidence > confidence,
                let file = finding.location.file, let line = finding.location.startLine,
                let clause = facts[file]?.clauses.filter({ $0.lines.contains(line) }).min(by: { $0.lines.count < $1.lines.count }),
                !clause.types.isEmpty, clause.types.allSatisfy(project.raisesOnlySpelledMessages)
            else { return finding }
            var copy = finding
            copy.confidence = confidence
            let types = clause.types.joined(separator: ", ")
            copy.message +=
                " (the clause catches only \(types), which the project defines and raises with its own literal messages: the text is the application's, so \(confidence.rawValue) confidence)"
            return copy
        }
    }

    /// The project's exception classes and how they are raised.
    private struct Project {
        var bases: [String: Set<String>] = [:]
        var subclasses: [String: Set<String>] = [:]
        var spelled: [String: Bool] = [:]

        init(_ files: some Sequence<FileFacts>) {
            for file in files {
                for (name, classBases) in file.classes {
                    bases[name, default: []].formUnion(classBases)
                    for base in classBases { subclasses[base, default: []].insert(name) }
                }
                for (name, ok) in file.spelledRaises { spelled[name] = (spelled[name] ?? true) && ok }
            }
        }

        /// Whether `name` is an exception class of the project that it, and every subclass of
        /// it in the project, raises only with messages the code spells (at least once).
        func raisesOnlySpelledMessages(_ name: String) -> Bool {
            guard isException(name) else { return false }
            var raised = false
            var seen: Set<String> = []
            var queue = [name]
            while let next = queue.popLast() {
                guard seen.insert(next).inserted else { continue }
                if let ok = spelled[next] {
                    if !ok { return false }
                    raised = true
                }
                queue += subclasses[next] ?? []
            }
            return raised
        }

        /// A class the project defines whose lineage is an exception's (a name ending in
        /// `Error` or `Exception`, or `Exception` itself).
        private func isException(_ name: String) -> Bool {
            guard bases[name] != nil else { return false }
            var seen: Set<String> = []
            var queue = [name]
            while let next = queue.popLast() {
                guard seen.insert(next).inserted else { continue }
                if next.hasSuffix("Error") || next.hasSuffix("Exception") { return true }
                queue += bases[next] ?? []
            }
            return false
        }
    }

    /// Whether an argument of a raise is a message the code spells: a string literal, an
    /// f-string without interpolations, a translated literal (`_("...")`, `gettext_lazy("...")`),
    /// or a constant (`code=400`).
    private static func isSpelled(_ argument: SyntaxNode) -> Bool {
        switch argument.kind {
        case .string, .integer, .float, .true, .false, .none:
            return true
        case .joinedStr:
            return argument.children.allSatisfy { $0.kind == .string }
        case .keyword:
            return argument.children.first.map(isSpelled) ?? true
        case .call:
            guard let callee = argument.children.first?.dottedName, translations.contains(FileIndex.lastSegment(callee)) else {
                return false
            }
            return argument.children.dropFirst().allSatisfy { $0.kind == .string || ($0.kind == .keyword && isSpelled($0)) }
        default:
            return false
        }
    }

    /// The gettext family's names, as Django, Flask-Babel and gettext spell them.
    static let translations: Set<String> = [
        "_", "_l", "N_", "gettext", "gettext_lazy", "ugettext", "ugettext_lazy", "ngettext", "ngettext_lazy", "pgettext",
        "pgettext_lazy", "npgettext", "lazy_gettext", "lazy_pgettext",
    ]

}
