import Foundation
import Findings

/// Reflected cross-site scripting: a harmless marker shows where the value lands in the page
/// (element text, an attribute, a script string, a comment...); a payload made to break out of
/// that context is sent, and the answer is parsed again — the finding needs the payload's own
/// marker to sit where a browser would run it (a tag of its own, an attribute name, script code,
/// a `javascript:` URL). Escaped reflections never count. State-changing requests also get
/// payloads planted for the stored-XSS pass.
public struct CrossSiteScriptingCheck: ActiveCheck {
    static let rule = WebRule(
        id: "xss-reflected", name: "Reflected cross-site scripting", severity: .high, cwe: [79],
        help: "Escape output for its context (the template engine's autoescaping), and send a Content-Security-Policy.")
    static let jsonp = WebRule(
        id: "xss-jsonp-callback", name: "JSONP callback accepts any script", severity: .high, cwe: [79],
        help: "Validate the callback name against ^[A-Za-z_$][\\w$.]*$, or drop JSONP for CORS.")

    /// The rules it reports.
    public var rules: [WebRule] { [Self.rule, Self.jsonp, StoredXSSPass.rule] }

    /// A check.
    public init() {}

    /// Probe, then one breakout per context the probe landed in.
    public func test(_ point: InsertionPoint, context: ActiveContext) throws -> [Finding] {
        if point.endpoint.isMutating { try plant(point, context: context) }
        let probe = context.reflectionMarker
        // A read that stores (a GET that adds a comment) shows the probe on another page later.
        if !point.endpoint.isMutating { context.planted.probe(probe, at: point) }
        guard let probed = try context.reflection(point), probed.text.contains(probe) else { return [] }
        if Self.runsAsScript(probed, startingWith: point.original + probe), let finding = try jsonpCallback(point, context: context) {
            return [finding]
        }
        guard probed.isHTML else { return [] }
        var tried = Set<String>()
        // First characters the page escaped: other breakouts starting with them fail the same way.
        var escaped = Set<Character>()
        for reflection in ReflectionContext.contexts(of: probe, in: probed.text).prefix(4) {
            for template in Self.breakouts(for: reflection) where tried.insert(template).inserted {
                guard let first = template.first, !escaped.contains(first) else { continue }
                let marker = context.markers.marker()
                let payload = template.replacingOccurrences(of: "MARK", with: marker)
                // A javascript: URL works only at the start of the value.
                let value = payload.hasPrefix("javascript:") ? payload : point.original + payload
                guard let (request, response) = try context.send(point, value) else { continue }
                guard response.isHTML, Self.executes(marker, in: response.text) else {
                    if Self.escapesHead(of: payload, in: response.text) { escaped.insert(first) }
                    continue
                }
                return [
                    Self.rule.finding(
                        at: point,
                        message: "Reflected XSS in '\(point.name)': input breaks out of \(Self.describe(reflection)) into markup",
                        evidence: Evidence.of(request, response, around: marker),
                        web: WebFacts(reflectionContext: Self.describe(reflection)))
                ]
            }
        }
        return []
    }

    /// True when the page shows the payload's leading punctuation HTML-escaped, right before
    /// the rest of it (`&lt;snt…` for `<snt…>`).
    static func escapesHead(of payload: String, in text: String) -> Bool {
        let head = String(payload.prefix { !$0.isLetter && !$0.isNumber })
        let escapedHead = HTMLRenderer.escape(head)
        guard !head.isEmpty, escapedHead != head else { return false }
        return text.contains(escapedHead + payload.dropFirst(head.count).prefix(4))
    }

    /// Payloads for a reflection context; `MARK` becomes a fresh marker.
    static func breakouts(for reflection: ReflectionContext) -> [String] {
        switch reflection {
        case .text: ["<MARK>", "<img src=x onerror=MARK>"]
        case .rcdata(let element): ["</\(element)><MARK>"]
        case .comment: ["--><MARK>"]
        case .style: ["</style><MARK>"]
        // A javascript: URL runs only from an attribute that holds a URL.
        case .attributeValue(_, let quote?): ["\(quote)><MARK>", "\(quote) onmouseover=MARK x=\(quote)"]
        case .urlAttribute(_, let quote?): ["\(quote)><MARK>", "\(quote) onmouseover=MARK x=\(quote)", "javascript:MARK"]
        case .attributeValue(_, nil): [" onmouseover=MARK ", "><MARK>"]
        case .urlAttribute(_, nil): [" onmouseover=MARK ", "><MARK>", "javascript:MARK"]
        case .script(let quote?): ["</script><MARK>", "\(quote);MARK;//", "\\\(quote);MARK;//"]
        case .script(nil), .scriptComment: ["</script><MARK>", "\n;MARK;//"]
        case .attributeName, .tagName: [" onmouseover=MARK ", "><MARK>"]
        }
    }

    /// True when `marker` sits where a browser runs it: its own tag, an event handler, script
    /// code outside strings and comments, or a `javascript:` URL.
    static func executes(_ marker: String, in html: String) -> Bool {
        ReflectionContext.isExecutable(payloadMarker: marker, in: html)
    }

    static func describe(_ reflection: ReflectionContext) -> String {
        switch reflection {
        case .text: "element text"
        case .rcdata(let element): "<\(element)> text"
        case .comment: "an HTML comment"
        case .style: "a <style> block"
        case .attributeValue(let name, let quote): quote == nil ? "the unquoted \(name) attribute" : "the quoted \(name) attribute"
        case .urlAttribute(let name, _): "the \(name) URL"
        case .script(let quote): quote == nil ? "script code" : "a script string"
        case .scriptComment: "a script comment"
        case .attributeName: "an attribute name"
        case .tagName: "a tag name"
        }
    }

    /// True when a page that includes this answer with `<script src>` runs it: a JavaScript type,
    /// or, without `X-Content-Type-Options: nosniff`, any type a browser does not refuse to run
    /// (Fetch blocks only images, audio, video and CSV; `text/plain` runs) — when the answer
    /// starts with the reflected value, as a JSONP callback does.
    static func runsAsScript(_ response: WebResponse, startingWith probe: String) -> Bool {
        let type = response.mediaType
        if type.contains("javascript") || type.contains("ecmascript") { return true }
        guard !response.isHTML, response.header("X-Content-Type-Options")?.lowercased().contains("nosniff") != true,
            !["image/", "audio/", "video/"].contains(where: type.hasPrefix), type != "text/csv"
        else { return false }
        return response.text.drop { $0.isWhitespace || $0 == "/" || $0 == "*" }.hasPrefix(probe)
    }

    /// A JSONP endpoint whose callback takes script, not just a name.
    private func jsonpCallback(_ point: InsertionPoint, context: ActiveContext) throws -> Finding? {
        let first = context.markers.marker()
        let second = context.markers.marker()
        let payload = "\(first);\(second)//"
        guard let (request, response) = try context.send(point, payload) else { return nil }
        let body = response.text.drop { $0.isWhitespace || $0 == "/" || $0 == "*" }
        guard body.hasPrefix(payload) else { return nil }
        return Self.jsonp.finding(
            at: point, message: "JSONP callback '\(point.name)' runs any script the caller names",
            evidence: Evidence.of(request, response, around: payload))
    }

    /// Sends markup payloads into a state-changing request for the stored-XSS pass.
    private func plant(_ point: InsertionPoint, context: ActiveContext) throws {
        for template in ["<MARK>", "\"><MARK>"] {
            let marker = context.markers.marker()
            context.planted.plant(marker, at: point)
            _ = try context.send(point, point.original + template.replacingOccurrences(of: "MARK", with: marker))
        }
    }
}
