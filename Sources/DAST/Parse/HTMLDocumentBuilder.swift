import Web

/// Walks the tokens of a page once, collecting raw links, the title and form drafts; URLs are
/// resolved at the end because `<base href>` applies to the whole document wherever it is.
struct HTMLDocumentBuilder {
    /// The most form controls kept per page.
    static let maxFields = 10_000
    /// The most options kept per select.
    static let maxOptions = 1_000

    let bytes: [UInt8]
    let page: WebURL
    let maxLinks: Int
    let maxForms: Int
    /// Raw links kept before resolution: four times `maxLinks`, to leave room for duplicates.
    let maxRawLinks: Int
    var forms = HTMLFormCollector()
    private var baseHref: String?
    private var title: String?
    private var rawLinks: [(reference: String, kind: HTMLLink.Kind, source: String)] = []

    init(bytes: [UInt8], page: WebURL, maxLinks: Int, maxForms: Int) {
        self.bytes = bytes
        self.page = page
        self.maxLinks = max(0, maxLinks)
        self.maxForms = max(0, maxForms)
        maxRawLinks = self.maxLinks > Int.max / 4 ? Int.max : self.maxLinks * 4
    }

    mutating func build() -> HTMLDocument {
        var tokenizer = HTMLTokenizer(bytes: bytes, scripting: false)
        while let token = tokenizer.next() {
            consume(token)
        }
        forms.finish()
        let base = baseHref.flatMap { page.resolving($0) } ?? page.with(fragment: nil)
        return HTMLDocument(
            url: page, baseURL: base, title: title, links: resolvedLinks(base: base),
            forms: forms.resolved(page: page, base: base))
    }

    private mutating func consume(_ token: HTMLToken) {
        // A textarea's text is the token right after its start tag, or there is none.
        if token.kind != .rcdata { forms.pendingTextarea = nil }
        switch token.kind {
        case .startTag where token.terminated:
            startTag(token)
            forms.startTag(token, bytes: bytes, maxForms: maxForms)
        case .endTag where token.terminated: forms.endTag(token.name)
        case .text: forms.text(bytes[token.contentRange])
        case .rcdata:
            if token.name == "title", title == nil {
                title = HTMLBytes.collapsingSpace(HTMLEntities.decode(bytes[token.contentRange], inAttribute: false))
            }
            forms.rcdata(token, bytes: bytes)
        case .rawText where token.name == "script":
            let budget = maxRawLinks - rawLinks.count
            for reference in ScriptURLs.candidates(bytes, in: token.contentRange, limit: max(0, budget)) {
                addLink(reference, .navigation, "script text")
            }
        default: break
        }
    }

    private mutating func startTag(_ token: HTMLToken) {
        let name = token.name
        for source in HTMLLinkSources.table[name] ?? [] {
            guard let reference = token.attribute(source.attribute, in: bytes) else { continue }
            let kind = name == "link" ? HTMLLinkSources.linkKind(rel: token.attribute("rel", in: bytes)) : source.kind
            addLink(reference, kind, "\(name)[\(source.attribute)]")
        }
        if name == "base", baseHref == nil, let href = token.attribute("href", in: bytes) {
            baseHref = href
        }
        // Event handlers are inline scripts too (`onclick="window.location.href='/lab'"`): pages
        // whose navigation is buttons have no other link to what they lead to.
        for attribute in token.attributes where attribute.name.hasPrefix("on") && attribute.valueRange != nil {
            let budget = maxRawLinks - rawLinks.count
            guard budget > 0, let code = token.attribute(attribute.name, in: bytes) else { break }
            let script = Array(code.utf8)
            for reference in ScriptURLs.candidates(script, in: 0..<script.count, limit: budget) {
                addLink(reference, .navigation, "\(name)[\(attribute.name)]")
            }
        }
        if name == "meta", token.attribute("http-equiv", in: bytes)?.lowercased() == "refresh",
            let content = token.attribute("content", in: bytes), let reference = HTMLLinkSources.refreshURL(content)
        {
            addLink(reference, .navigation, "meta[refresh]")
        }
    }

    /// Records a link to resolve later; empty references (the page itself) are skipped.
    private mutating func addLink(_ reference: String, _ kind: HTMLLink.Kind, _ source: String) {
        guard rawLinks.count < maxRawLinks, !URLText.trimmed(reference).isEmpty else { return }
        rawLinks.append((reference, kind, source))
    }

    private func resolvedLinks(base: WebURL) -> [HTMLLink] {
        var seen = Set<String>()
        var links: [HTMLLink] = []
        for raw in rawLinks {
            guard links.count < maxLinks else { break }
            guard let url = base.resolving(raw.reference), seen.insert(raw.kind.rawValue + " " + url.string).inserted
            else { continue }
            links.append(HTMLLink(url: url, kind: raw.kind, source: raw.source))
        }
        return links
    }
}
