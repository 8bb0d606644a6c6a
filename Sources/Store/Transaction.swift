import Support

extension Database {
    /// Runs `body` in one write transaction (`BEGIN IMMEDIATE`: the write lock is taken up front,
    /// so two writers wait for each other instead of failing half-way). It commits when `body`
    /// returns and rolls back when it or the commit throws: all or nothing.
    ///
    /// Transactions do not nest; opening one inside another throws.
    @discardableResult
    public func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        guard !isInTransaction else {
            throw SentinelError(.io, "\(path): a transaction is already open on this connection")
        }
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}
