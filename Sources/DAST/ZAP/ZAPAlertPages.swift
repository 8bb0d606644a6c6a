import Documents
import Support

/// Reads `core/view/alerts` for the target page by page (`start`, `count`) until a short page.
enum ZAPAlertPages {
    /// Alerts read, and how many elements were not alerts.
    struct Read {
        var alerts: [ZAPAlert] = []
        var skipped = 0
    }

    /// The target's alerts, at most `options.maxAlerts`; `unread` is true when more remained.
    static func read(client: ZAPClient, options: ZAPScanOptions) throws -> (Read, unread: Bool) {
        var read = Read()
        let size = max(1, options.alertPageSize)
        var start = 0
        while start < options.maxAlerts {
            let count = min(size, options.maxAlerts - start)
            let page = try self.page(client: client, baseURL: options.targetURL, start: start, count: count)
            // ZAP returns at most `count`; more is not trusted, only the first `count` are kept.
            for node in page.prefix(count) {
                if let alert = ZAPAlert(node) { read.alerts.append(alert) } else { read.skipped += 1 }
            }
            if page.count != count { return (read, false) }
            start += count
        }
        let more = try page(client: client, baseURL: options.targetURL, start: start, count: 1)
        return (read, !more.isEmpty)
    }

    private static func page(client: ZAPClient, baseURL: String, start: Int, count: Int) throws -> [DocumentNode] {
        let answer = try client.call(
            "core/view/alerts", [("baseurl", baseURL), ("start", String(start)), ("count", String(count))])
        guard let page = answer["alerts"], page.isArray else {
            throw ZAPScan.missing("alerts", step: "core/view/alerts")
        }
        return page.elements
    }
}
