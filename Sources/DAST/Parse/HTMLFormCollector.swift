import Web

/// Collects forms and their controls while the document is walked: the open form (nested
/// forms are ignored, as browsers do), `form="id"` owners, selects with their options,
/// textareas' text and disabled fieldsets.
struct HTMLFormCollector {
    /// A form as written, before its action is resolved.
    struct Draft {
        var id: String?
        var name: String?
        var action: String?
        var method: String?
        var enctype: String?
    }

    /// Which form a control belongs to: the enclosing one, or the one its `form` attribute names.
    enum Owner {
        case form(Int)
        case formID(String)
    }

    private var drafts: [Draft] = []
    private var fields: [(field: FormField, owner: Owner)] = []
    private var openForm: Int?
    private var openSelect: Int?
    private var selectHasSelection = false
    private var option: (value: String?, selected: Bool, text: [UInt8])?
    private var fieldsets: [Bool] = []
    private var fieldsetOverflow = 0
    /// The textarea whose RCDATA token comes next.
    var pendingTextarea: Int?

    mutating func startTag(_ token: HTMLToken, bytes: [UInt8], maxForms: Int) {
        switch token.name {
        case "form":
            guard openForm == nil, drafts.count < maxForms else { return }
            drafts.append(
                Draft(
                    id: token.attribute("id", in: bytes), name: token.attribute("name", in: bytes),
                    action: token.attribute("action", in: bytes), method: token.attribute("method", in: bytes),
                    enctype: token.attribute("enctype", in: bytes)))
            openForm = drafts.count - 1
        case "select" where openSelect != nil:
            // `<select>` inside a select only closes it, as in browsers.
            closeSelect()
        case "input", "button", "select", "textarea":
            if token.name != "button" { closeSelect() }
            guard let index = addField(token, bytes: bytes) else { return }
            if token.name == "select" { openSelect = index }
            if token.name == "textarea" { pendingTextarea = index }
        case "option":
            guard openSelect != nil else { return }
            finishOption()
            option = (token.attribute("value", in: bytes), token.hasAttribute("selected"), [])
        case "optgroup": finishOption()
        case "fieldset":
            // A stack bounded against hostile nesting; the overflow is only counted.
            if fieldsets.count < 1_024 { fieldsets.append(token.hasAttribute("disabled")) } else { fieldsetOverflow += 1 }
        default: break
        }
    }

    mutating func endTag(_ name: String) {
        switch name {
        case "form": openForm = nil
        case "select": closeSelect()
        case "option", "optgroup": finishOption()
        case "fieldset":
            if fieldsetOverflow > 0 { fieldsetOverflow -= 1 } else if !fieldsets.isEmpty { fieldsets.removeLast() }
        default: break
        }
    }

    /// Text inside an open option is its label.
    mutating func text(_ bytes: ArraySlice<UInt8>) {
        guard option != nil, let count = option?.text.count, count < 4_096 else { return }
        option?.text.append(contentsOf: bytes.prefix(4_096 - count))
    }

    /// A textarea's content is its default value (one leading newline dropped, as browsers do).
    mutating func rcdata(_ token: HTMLToken, bytes: [UInt8]) {
        guard token.name == "textarea", let index = pendingTextarea else { return }
        var text = Substring(HTMLEntities.decode(bytes[token.contentRange], inAttribute: false))
        if text.first == "\r\n" || text.first == "\n" { text = text.dropFirst() }
        fields[index].field.value = String(text)
        pendingTextarea = nil
    }

    mutating func finish() {
        closeSelect()
    }

    private mutating func addField(_ token: HTMLToken, bytes: [UInt8]) -> Int? {
        let owner: Owner
        if let id = token.attribute("form", in: bytes) {
            owner = .formID(id)
        } else if let openForm {
            owner = .form(openForm)
        } else {
            return nil
        }
        guard fields.count < HTMLDocumentBuilder.maxFields else { return nil }
        var field = HTMLFieldReader.field(token, bytes: bytes)
        field.isDisabled = field.isDisabled || fieldsets.contains(true)
        fields.append((field, owner))
        return fields.count - 1
    }

    private mutating func finishOption() {
        guard let current = option, let select = openSelect else { return }
        option = nil
        guard fields[select].field.options.count < HTMLDocumentBuilder.maxOptions else { return }
        let label = HTMLBytes.collapsingSpace(HTMLEntities.decode(current.text[...], inAttribute: false))
        let value = current.value ?? label
        fields[select].field.options.append(value)
        if current.selected, !selectHasSelection {
            fields[select].field.value = value
            selectHasSelection = true
        }
    }

    private mutating func closeSelect() {
        finishOption()
        if let select = openSelect, !selectHasSelection {
            fields[select].field.value = fields[select].field.options.first ?? ""
        }
        openSelect = nil
        selectHasSelection = false
    }

    /// The forms with resolved actions and their controls in document order.
    func resolved(page: WebURL, base: WebURL) -> [HTMLForm] {
        var byID: [String: Int] = [:]
        for (index, draft) in drafts.enumerated() {
            if let id = draft.id, byID[id] == nil { byID[id] = index }
        }
        var controls = [[FormField]](repeating: [], count: drafts.count)
        for (field, owner) in fields {
            switch owner {
            case .form(let index): controls[index].append(field)
            case .formID(let id): if let index = byID[id] { controls[index].append(field) }
            }
        }
        return drafts.enumerated().compactMap { index, draft in
            let reference = URLText.trimmed(draft.action ?? "")
            guard let action = reference.isEmpty ? page.with(fragment: nil) : base.resolving(reference) else { return nil }
            return HTMLForm(
                action: action, method: draft.method ?? "GET", enctype: draft.enctype ?? HTMLForm.urlEncoded,
                fields: controls[index], id: draft.id, name: draft.name, page: page)
        }
    }
}
