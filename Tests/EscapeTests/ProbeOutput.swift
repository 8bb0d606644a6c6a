/// The verdict line `sentinel-probe` prints: `DENIED verb ERRNO`, `ESCAPED verb detail`,
/// `INFO verb key=value ...` or `REFUSED verb why`.
struct ProbeOutput: Sendable, Equatable {
    enum Kind: String, Sendable {
        case denied = "DENIED"
        case escaped = "ESCAPED"
        case info = "INFO"
        case refused = "REFUSED"
    }

    var kind: Kind
    var verb: String
    /// Everything after the verb: the errno name for DENIED, the detail otherwise.
    var detail: String

    /// The first verdict line in `text`; other lines (a launcher's own messages) are skipped.
    init?(_ text: String) {
        for line in text.split(separator: "\n") {
            let tokens = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            guard tokens.count >= 2, let kind = Kind(rawValue: String(tokens[0])) else { continue }
            self.kind = kind
            self.verb = String(tokens[1])
            self.detail = tokens.count > 2 ? String(tokens[2]) : ""
            return
        }
        return nil
    }

    /// The errno (or signal) name of a DENIED line, nil otherwise.
    var denial: String? { kind == .denied ? detail : nil }

    /// `key=value` tokens of the detail, e.g. INFO caps `CapEff=0000000000000000`.
    var fields: [String: String] {
        var result: [String: String] = [:]
        for token in detail.split(separator: " ") {
            guard let equals = token.firstIndex(of: "=") else { continue }
            result[String(token[..<equals])] = String(token[token.index(after: equals)...])
        }
        return result
    }
}
