import Digest
import Foundation
import Heal
import Store
import Support
import Synchronization

/// Heal memory shared fleet-wide: the fleet database keeps every attempt any worker's heals
/// recorded (each once, by its key), and each worker's own memory (`heal.sqlite` in its state
/// directory, which its `sentinel heal` children read and write) takes in what the others learnt
/// before a heal and sends back what its heal learnt after. So a fix verified on one machine is
/// replayed first on every other (of the same repository), and a change that failed on a signal is
/// skipped everywhere.
///
/// Anyone who may submit jobs may write `fleet_memory` too: every record sent carries a MAC made
/// with the workers' memory key (``MemoryKey``), which submitters do not hold, and a record taken
/// in without one that verifies is dropped and counted (issue 53, R8).
final class MemorySync: Sendable {
    private let path: String?
    private let state: StateDirectory?
    private let environment: [String: String]
    private let keyFile: String?
    /// The last shared record taken in as final (``SharedMemoryRow/final``), the keys of those
    /// taken in before they were final (so each is read once more, when it is, and not taken in
    /// twice), and the last local row sent; held through a whole pull or push, so that two never
    /// run at once.
    private let cursors = Mutex<Cursors>(Cursors())

    private struct Cursors {
        var pulled = SharedMemoryCursor.start
        var ahead = Set<String>()
        var pushed: Int64 = 0
    }

    /// The memory of the state directory `environment` names (the heal children's), shared under
    /// the key in `keyFile` (`--memory-key`), else as ``MemoryKey/resolve(file:environment:state:)`` finds it.
    init(environment: [String: String], keyFile: String? = nil) {
        state = try? StateDirectory.resolve(environment: environment)
        path = state?.file("heal.sqlite")
        self.environment = environment
        self.keyFile = keyFile
    }

    /// Takes in the records other workers shared since the last call: how many were new here, and
    /// how many were dropped for want of a valid MAC.
    @discardableResult
    func pull(_ queue: JobQueue) throws -> SharedImport {
        guard let path, let state else { return SharedImport(added: 0, dropped: 0) }
        return try cursors.withLock { cursors in
            let key = try MemoryKey.resolve(file: keyFile, environment: environment, state: state).key
            let memory = try HealMemory(path: path, redactor: .process)
            var total = SharedImport(added: 0, dropped: 0)
            // The cursor moves over the final rows that lead the read order only; the pages go on
            // past a row still in flight, taking in what is visible now (by key, once).
            var scan = cursors.pulled
            var leading = true
            while true {
                let batch = try queue.sharedMemory(after: scan)
                guard let last = batch.last else { return total }
                var fresh: [String] = []
                // Applied once the batch is taken in: a failed import moves nothing.
                var (pulled, ahead) = (cursors.pulled, cursors.ahead)
                for row in batch {
                    leading = leading && row.final
                    if leading {
                        pulled = row.cursor
                        if ahead.remove(row.key) == nil { fresh.append(row.record) }
                    } else if ahead.insert(row.key).inserted {
                        fresh.append(row.record)
                    }
                }
                let taken = try memory.importShared(fresh, key: key)
                (cursors.pulled, cursors.ahead) = (pulled, ahead)
                total.added += taken.added
                total.dropped += taken.dropped
                scan = last.cursor
            }
        }
    }

    /// Sends the records this machine's memory gained since the last call, each with its MAC;
    /// returns how many were new to the fleet.
    @discardableResult
    func push(_ queue: JobQueue) throws -> Int {
        guard let path, let state else { return 0 }
        return try cursors.withLock { cursors in
            let key = try MemoryKey.resolve(file: keyFile, environment: environment, state: state).key
            let memory = try HealMemory(path: path, redactor: .process)
            var added = 0
            while true {
                let batch = try memory.attempts(after: cursors.pushed)
                guard let last = batch.last else { return added }
                let records = try batch.map { row in
                    let text = try row.attempt.signed(with: key).encoded()
                    return (key: SHA256.hex(text), record: text, embedding: Optional(Self.embedding(of: row.attempt)))
                }
                added += try queue.shareMemory(records)
                cursors.pushed = last.rowID
            }
        }
    }

    /// The local embedding of the attempt's signal (``LocalSignalEmbedding``), stored beside the
    /// record so that the fleet database can rank shared memory by similarity.
    static func embedding(of attempt: SharedAttempt) -> MemoryEmbedding {
        let embedder = LocalSignalEmbedding()
        let text = SignalText(
            kind: attempt.kind, message: attempt.signalMessage, exceptionType: attempt.exceptionType, topFrame: attempt.topFrame,
            ruleId: attempt.ruleId, package: attempt.package)
        return MemoryEmbedding(embedder: embedder.name, vector: embedder.vector(text))
    }
}
