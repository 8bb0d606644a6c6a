/// The compact text form in which an `affected[]` entry's ranges are stored, so that a lookup
/// reads a few short strings instead of re-decoding the advisory's JSON: one range per line,
/// `TYPE` then tab-separated events `i:`, `f:`, `a:` (last_affected), `l:` (limit).
enum StoredAffected {
    static func encodeRanges(_ ranges: [OSVRange]) -> String {
        ranges.map { range in
            ([range.type] + range.events.map { event -> String in
                switch event {
                case .introduced(let v): return "i:" + v
                case .fixed(let v): return "f:" + v
                case .lastAffected(let v): return "a:" + v
                case .limit(let v): return "l:" + v
                }
            }).joined(separator: "\t")
        }.joined(separator: "\n")
    }

    static func decodeRanges(_ text: String) -> [OSVRange] {
        text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard let type = fields.first else { return nil }
            let events = fields.dropFirst().compactMap { field -> OSVEvent? in
                let value = String(field.dropFirst(2))
                switch field.prefix(2) {
                case "i:": return .introduced(value)
                case "f:": return .fixed(value)
                case "a:": return .lastAffected(value)
                case "l:": return .limit(value)
                default: return nil
                }
            }
            return OSVRange(type: String(type), events: events)
        }
    }

    /// Whether a version string can be stored in this form (no tabs or newlines).
    static func isStorable(_ text: String) -> Bool { !text.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\r" }) }
}
