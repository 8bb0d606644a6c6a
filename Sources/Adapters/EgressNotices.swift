import Findings
import Sandbox

/// A sandboxed tool's egress log (the proxy's decisions, `RunResult.egress`) as notices, so the
/// user sees which hosts a DAST tool reached and what it was refused: one notice per
/// destination and decision, in the order first seen.
public enum EgressNotices {
    /// The most destinations listed; the rest are counted in one more notice.
    static let maxDestinations = 20

    /// Notices for `egress`: `info` for what was allowed (connections, bytes), `warning` for
    /// what was denied (attempts, the reason).
    public static func notices(_ egress: [EgressSummary], tool: ToolName) -> [Notice] {
        struct Destination {
            var host: String
            var port: Int
            var allowed: Bool
            var count = 0
            var bytes: UInt64 = 0
            var rule: String?
        }
        var order: [String] = []
        var seen: [String: Destination] = [:]
        for record in egress {
            let key = "\(record.allowed) \(record.host) \(record.port)"
            if seen[key] == nil {
                order.append(key)
                seen[key] = Destination(host: record.host, port: record.port, allowed: record.allowed, rule: record.rule)
            }
            seen[key]?.count += 1
            seen[key]?.bytes += record.bytes
        }
        var notices = order.prefix(maxDestinations).compactMap { seen[$0] }.map { destination in
            let name = ToolFailure.oneLine(hostPort(destination.host, destination.port))
            if destination.allowed {
                return Notice(
                    level: .info,
                    message: "\(tool) egress: connected to \(name) \(destination.count) time(s), \(destination.bytes) bytes",
                    tool: tool)
            }
            let reason = ToolFailure.oneLine(destination.rule ?? "denied")
            return Notice(
                level: .warning, message: "\(tool) egress: refused \(name) \(destination.count) time(s): \(reason)", tool: tool)
        }
        if order.count > maxDestinations {
            notices.append(
                Notice(
                    level: .warning, message: "\(tool) egress: \(order.count - maxDestinations) more destination(s) not listed",
                    tool: tool))
        }
        return notices
    }

    private static func hostPort(_ host: String, _ port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
