/// The compact text form in which an `affected[]` entry's ranges are stored, so that a lookup
/// reads a few short strings instead of re-decoding the advisory's JSON: one range per line,
/// `TYPE` then tab-separated events `i:`, `f:`, `a:` (last_affected), `l:` (limit).
enum StoredAffected {
    static func encodeRanges(_ ranges: [OSVRange]) -> String {
        ranges.map { range in
            ([range.type]
                + range.events.map { event -> String in
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
        // One pass over the bytes: lookups decode these for every candidate advisory.
        var ranges = [OSVRange]()
        var type: String?
        var events = [OSVEvent]()
        var field = [UInt8]()
        func endField() {
            defer { field.removeAll(keepingCapacity: true) }
            guard type != nil else { type = String(decoding: field, as: UTF8.self); return }
            guard field.count >= 2, field[1] == 0x3A else { return }  // "x:"
            let value = String(decoding: field[2...], as: UTF8.self)
            switch field[0] {
            case 0x69: events.append(.introduced(value))
            case 0x66: events.append(.fixed(value))
            case 0x61: events.append(.lastAffected(value))
            case 0x6C: events.append(.limit(value))
            default: break
            }
        }
        func endLine() {
            endField()
            if let type { ranges.append(OSVRange(type: type, events: events)) }
            type = nil
            events.removeAll()
        }
        for byte in text.utf8 {
            switch byte {
            case 0x09: endField()
            case 0x0A: endLine()
            default: field.append(byte)
            }
        }
        if type != nil || !field.isEmpty { endLine() }
        return ranges
    }

    /// Whether a version string can be stored in this form (no tabs or newlines).
    static func isStorable(_ text: String) -> Bool { !text.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\r" }) }
}
