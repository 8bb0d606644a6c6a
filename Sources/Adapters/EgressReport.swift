import Sandbox

/// One line on where a sandboxed scan's traffic went: the proof that a DAST scan contacted no
/// host but the target.
enum EgressReport {
    static func describe(_ records: [EgressSummary]) -> String {
        guard !records.isEmpty else { return "egress: no connection was made" }
        var allowed: [String: UInt64] = [:]
        var denied: [String: Int] = [:]
        for record in records {
            let name = "\(record.host):\(record.port)"
            if record.allowed { allowed[name, default: 0] += record.bytes } else { denied[name, default: 0] += 1 }
        }
        var parts = allowed.keys.sorted().map { "\($0) allowed (\(allowed[$0] ?? 0) bytes)" }
        parts += denied.keys.sorted().map { "\($0) denied (\(denied[$0] ?? 0)×)" }
        return "egress: " + parts.joined(separator: ", ")
    }
}
