import Support
import Testing

@testable import Store

@Suite struct TransactionTests {
    func count(_ db: Database) throws -> Int64 {
        let q = try db.prepare("SELECT COUNT(*) FROM t")
        try q.step()
        return q.int(0)
    }

    @Test func commitsWhatTheBodyDidAndReturnsItsValue() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t(x)")
        let value = try db.transaction {
            try db.execute("INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)")
            #expect(db.isInTransaction)
            return "done"
        }
        #expect(value == "done")
        #expect(!db.isInTransaction)
        #expect(try count(db) == 2)
    }

    @Test func rollsBackAllOfItWhenTheBodyThrows() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t(x)")
        let failure = SentinelError(.io, "injected")
        #expect(throws: failure) {
            try db.transaction {
                try db.execute("INSERT INTO t VALUES (1)")
                throw failure
            }
        }
        #expect(!db.isInTransaction)
        #expect(try count(db) == 0)
    }

    @Test func doesNotNest() throws {
        let db = try Database(path: ":memory:")
        try db.transaction {
            #expect(throws: SentinelError(.io, ":memory:: a transaction is already open on this connection")) {
                try db.transaction {}
            }
        }
        #expect(!db.isInTransaction)
    }
}
