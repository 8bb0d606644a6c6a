import Web

extension HTMLForm {
    /// What a browser would send when the first submit button is pressed, with filler for empty
    /// fields so the server's validation lets the request through: named, enabled controls in
    /// document order; checked checkboxes; one radio per group (the checked one, else the
    /// first); a select's selected (else first) option; the first submit button when named.
    /// Files, images, resets and plain buttons are left out.
    public func submission() -> [FormPair] {
        let radios = chosenRadios()
        let submitter = fields.firstIndex { $0.kind == .submit && !$0.isDisabled }
        var pairs: [FormPair] = []
        for (index, field) in fields.enumerated() where !field.name.isEmpty && !field.isDisabled {
            switch field.kind {
            case .file, .image, .reset, .button: continue
            case .submit: if index == submitter { pairs.append((field.name, field.value)) }
            case .checkbox: if field.checked { pairs.append((field.name, field.value)) }
            case .radio: if radios[field.name] == index { pairs.append((field.name, field.value)) }
            case .select: if !field.options.isEmpty { pairs.append((field.name, field.value)) }
            case .hidden: pairs.append((field.name, field.value))
            default: pairs.append((field.name, FormFiller.value(for: field, origin: page.origin)))
            }
        }
        return pairs
    }

    /// The index of the radio sent for each group: the last checked (browsers keep one), else the first.
    private func chosenRadios() -> [String: Int] {
        var first: [String: Int] = [:]
        var checked: [String: Int] = [:]
        for (index, field) in fields.enumerated() where field.kind == .radio && !field.isDisabled {
            if first[field.name] == nil { first[field.name] = index }
            if field.checked { checked[field.name] = index }
        }
        return first.merging(checked) { _, checkedIndex in checkedIndex }
    }
}
