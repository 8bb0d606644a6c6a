import Foundation
import Heal
import Store
import Support

/// Heal memory shared fleet-wide: the fleet database keeps every attempt any worker's heals
/// recorded (each once, by its key), and each worker's own memory (`heal.sqlite` in its state
/// directory, which its `sentinel heal` children read and write) takes in what the others learnt
/// before a heal and sends back what its heal learnt after. So a fix verified on one machine is
/// replayed first on every other, and a change that failed on a signal is skipped everywhere.
final class MemorySync: @unchecked Sendable {
    private let path: String?
    private let lock = NSLock()
    /// The last shared record taken in, and the last local row sent.
    private var pulled: Int64 = 0
    private var pushed: Int64 = 0

    /// The memory of the state directory `environment` names (the heal children's).
    init(environment: [String: String]) {
        path = (try? StateDirectory.resolve(environment: environment))?.file("heal.sqlite")
    }

    /// Takes in the records other workers shared since the last call; returns how many were new here.
    @discardableResult
    func pull(_ queue: JobQueue) throws -> Int {
        guard let path else { return 0 }
        return try lock.withLock {
            let memory = try HealMemory(path: path, redactor: .process)
            var added = 0
            while true {
                let batch = try queue.sharedMemory(after: pulled)
                guard let last = batch.last else { return added }
                let attempts = batch.compactMap { try? JSONDecoder().decode(SharedAttempt.self, from: Data($0.record.utf8)) }
                added += try memory.importAttempts(attempts)
                pulled = last.id
            }
        }
    }

    /// Sends the records this machine's memory gained since the last call; returns how many were
    /// new to the fleet.
    @discardableResult
    func push(_ queue: JobQueue) throws -> Int {
        guard let path else { return 0 }
        return try lock.withLock {
            let memory = try HealMemory(path: path, redactor: .process)
            var added = 0
            while true {
                let batch = try memory.attempts(after: pushed)
                guard let last = batch.last else { return added }
                added += try queue.shareMemory(batch.map { (try $0.attempt.key(), try $0.attempt.encoded()) })
                pushed = last.rowID
            }
        }
    }
}
