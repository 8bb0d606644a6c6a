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
    /// The last shared record taken in, and the last local row sent; held through a whole pull or
    /// push, so that two never run at once.
    private let cursors = Mutex<(pulled: Int64, pushed: Int64)>((0, 0))

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
            while true {
                let batch = try queue.sharedMemory(after: cursors.pulled)
                guard let last = batch.last else { return total }
                let taken = try memory.importShared(batch.map(\.record), key: key)
                total.added += taken.added
                total.dropped += taken.dropped
                cursors.pulled = last.id
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
                    return (key: SHA256.hex(text), record: text)
                }
                added += try queue.shareMemory(records)
                cursors.pushed = last.rowID
            }
        }
    }
}
