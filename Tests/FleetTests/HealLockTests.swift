import Audit
import Digest
import Foundation
import Store
import Support
import TestSupport
import Testing

@testable import Fleet

/// Issue 78, W8: any database login may take any advisory lock, so a heal lock named after the
/// job's computable key let another tenant hold it and the worker released her heal again and
/// again. Keyed with the fleet's audit key, the worker's lock is one no other login can name.
@Suite("Heal locks only a worker can name (PostgreSQL)", .integration, .serialized)
struct HealLockTests {
    /// The exclusive key `fleet submit heal` gives a heal: a digest anyone knowing the repository and
    /// the signal can compute.
    static let exclusiveKey = SHA256.hex("https://git.example/victim/app\nfingerprint-1")

    @Test("a submitter holding every name she can compute for a heal's key does not stop the worker taking its lock")
    func submitterCannotHoldTheWorkersLock() throws {
        guard PostgresServer.available else { return }
        let server = try #require(PostgresServer.shared)
        let url = try server.createDatabase()
        let database = PostgresServer.databaseName(url)
        try JobQueue(url: DatabaseURL(parsing: url)).createRoles()
        let login = "mallory_" + String(UUID().uuidString.prefix(8)).lowercased()
        _ = try server.psql("CREATE ROLE \(login) LOGIN PASSWORD 'pw-\(login)'; GRANT sentinel_submitter TO \(login)")
        let mallory = try JobQueue(url: DatabaseURL(parsing: "postgres://\(login):pw-\(login)@127.0.0.1:\(server.port)/\(database)"))
        // The names a login without the audit key can compute from what a job holds.
        for name in ["sentinel-heal:" + Self.exclusiveKey, Self.exclusiveKey, "sentinel-heal:"] {
            #expect(try mallory.tryLock(name))
        }

        let key = try AuditKey.generate()
        let name = HealLock.name(exclusiveKey: Self.exclusiveKey, key: key)
        let worker = WorkerConnection(url: try DatabaseURL(parsing: url), retry: RetryPolicy())
        let other = WorkerConnection(url: try DatabaseURL(parsing: url), retry: RetryPolicy())
        #expect(try worker.tryLock(name))
        // Still exclusive between workers holding the key: the second waits.
        #expect(try !other.tryLock(name))
        worker.unlock(name)
        #expect(try other.tryLock(name))
        other.unlock(name)
    }

    @Test("the lock's name depends on the fleet's key and the job's key, and shows neither")
    func nameIsKeyed() throws {
        let key = try AuditKey.generate()
        let name = HealLock.name(exclusiveKey: Self.exclusiveKey, key: key)
        #expect(!name.contains(Self.exclusiveKey))
        #expect(name == HealLock.name(exclusiveKey: Self.exclusiveKey, key: key))
        #expect(name != HealLock.name(exclusiveKey: Self.exclusiveKey, key: try AuditKey.generate()))
        #expect(name != HealLock.name(exclusiveKey: Self.exclusiveKey + "0", key: key))
        #expect(name != "sentinel-heal:" + key.link(previous: "", line: Array(Self.exclusiveKey.utf8)))
    }
}
