import Synchronization

/// The queue's SQL, written once for both backends with `{now}`, `{skip_locked}` and `{serial}`
/// (and `$N` parameters), rewritten for one backend by `rewrite` and remembered: the same few
/// dozen statements run for every job, and rewriting each text with Foundation's string search
/// each time cost a worker an eighth of its time per job.
final class SQLTemplates: Sendable {
    private let rewrite: @Sendable (String) -> String
    private let rewritten = Mutex<[String: String]>([:])
    /// Statements are literals in the source, but a few embed a value: past this many texts the
    /// memory is emptied rather than grown.
    private static let limit = 512

    init(_ rewrite: @escaping @Sendable (String) -> String) { self.rewrite = rewrite }

    /// `sql` rewritten for this backend.
    func callAsFunction(_ sql: String) -> String {
        if let known = rewritten.withLock({ $0[sql] }) { return known }
        let text = rewrite(sql)
        rewritten.withLock { table in
            if table.count >= Self.limit { table.removeAll(keepingCapacity: true) }
            table[sql] = text
        }
        return text
    }
}
