import Audit
import Digest
import Foundation
import Store
import Support

/// What `fleet audit verify` found: each chain's verification and the outcome cross-check.
public struct FleetAuditVerification: Sendable {
    /// One chain's result.
    public struct Chain: Sendable {
        /// The chain's name.
        public var name: String
        /// Its verification (links, numbering, chain names, stored head, head files).
        public var result: AuditVerifier.Result
        /// The head files it was checked against.
        public var checkpoints: [AuditVerifier.Checkpoint]
    }

    /// Every chain, by name.
    public var chains: [Chain] = []
    /// Problems outside any one chain: an outcome without exactly one entry, a head file no chain holds.
    public var problems: [String] = []
    /// The jobs the cross-check covered (those after `lastUncheckedJob`).
    public var checkedJobs = 0
    /// The lease expiries the cross-check covered.
    public var checkedExpiries = 0
    /// The last job from before per-writer chains (its outcomes were audited apart from it).
    public var lastUncheckedJob: Int64 = 0

    /// True when every chain is intact and the cross-check found nothing.
    public var intact: Bool { problems.isEmpty && chains.allSatisfy(\.result.intact) }
}

extension FleetAudit {
    /// Checks every chain in the database (links, numbering, chain names, stored head) against this
    /// machine's head files for it and `heads` (other machines', each checked against the chain
    /// that holds its entry), that every head file of this machine names a chain still there, and
    /// that every job after the cut-over (`fleet_audit_cutover`) in a final state has exactly one
    /// final outcome entry and every one of its lease expiries exactly one entry.
    public func verifyAll(heads given: [AuditVerifier.Checkpoint] = []) throws -> FleetAuditVerification {
        let location = queue.location
        // Head files first: each names an entry committed before it was written, so before this read.
        let files = try state.headFiles(for: location)
        var local: [String: AuditHead] = [:]
        for file in files { local[file.name] = try state.head(named: file.name) }
        let snapshot = try queue.auditSnapshot()
        var verification = FleetAuditVerification(lastUncheckedJob: snapshot.lastUncheckedJob)
        let names = Set(snapshot.chains.map(\.chain))
        for file in files where file.chainDigest != nil {
            if !names.contains(where: { SHA256Prefix.of($0) == file.chainDigest }) {
                verification.problems.append(
                    "this machine's head file (\(state.path)/\(file.name)) is for a chain the database no longer holds: the chain was deleted"
                )
            }
        }
        var unplaced = given
        for chain in snapshot.chains {
            let name = FleetAuditState.headName(for: location, chain: chain.chain)
            var checkpoints =
                local[name].map { [AuditVerifier.Checkpoint(head: $0, name: "this machine's head file (\(state.path)/\(name))")] } ?? []
            let auditor = FleetAudit(queue: queue, state: state, chain: chain.chain, redactor: redactor)
            // Another machine's head file belongs to the chain that holds its entry.
            let plain = auditor.verify(chain, heads: [])
            unplaced.removeAll { checkpoint in
                guard plain.intact, auditor.verify(chain, heads: [checkpoint]).intact else { return false }
                checkpoints.append(checkpoint)
                return true
            }
            verification.chains.append(
                FleetAuditVerification.Chain(name: chain.chain, result: auditor.verify(chain, heads: checkpoints), checkpoints: checkpoints)
            )
        }
        for checkpoint in unplaced {
            verification.problems.append(
                "\(checkpoint.name) names entry \(checkpoint.head.sequence) (\(checkpoint.head.hash.prefix(16))…), which no intact chain holds: truncated or rewritten"
            )
        }
        crossCheck(snapshot, into: &verification)
        return verification
    }

    /// Every job after the cut-over: final ones have exactly one final outcome entry, others none,
    /// and each lease expiry has exactly one entry. Only the verified lines of each chain count.
    private func crossCheck(
        _ snapshot: (chains: [AuditChainSnapshot], lastUncheckedJob: Int64, jobs: [AuditedJob]),
        into verification: inout FleetAuditVerification
    ) {
        var finals: [Int64: Int] = [:]
        var expiries: [Int64: Int] = [:]
        // `fleet retry` queues a finished job again: its next outcome is one more final entry.
        var requeues: [Int64: Int] = [:]
        for (chain, result) in zip(snapshot.chains, verification.chains.map(\.result)) {
            for line in chain.lines.prefix(result.validLines) {
                guard let object = Self.object(of: line),
                    let event = object["event"] as? String, let details = object["details"] as? [String: Any],
                    let job = (details["job"] as? String).flatMap({ Int64($0) }), job > snapshot.lastUncheckedJob
                else { continue }
                if event == Self.leaseExpiredEvent {
                    expiries[job, default: 0] += 1
                    if let state = details["state"] as? String, Self.finalStates.contains(state) { finals[job, default: 0] += 1 }
                } else if Self.finalEvents.contains(event) {
                    finals[job, default: 0] += 1
                } else if event == Self.requeuedEvent {
                    requeues[job, default: 0] += 1
                }
            }
        }
        for job in snapshot.jobs {
            let entries = finals[job.id] ?? 0
            let expected = (requeues[job.id] ?? 0) + (Self.finalStates.contains(job.state) ? 1 : 0)
            if entries != expected {
                verification.problems.append(
                    entries == 0
                        ? "job \(job.id) is \(job.state) but has no outcome entry"
                        : "job \(job.id) is \(job.state) but has \(entries) outcome entr\(entries == 1 ? "y" : "ies") (\(expected == 0 ? "none expected" : "duplicated"))"
                )
            }
            let expired = expiries[job.id] ?? 0
            if expired != job.leaseExpiries {
                verification.problems.append(
                    "job \(job.id): \(job.leaseExpiries) lease expir\(job.leaseExpiries == 1 ? "y" : "ies"), \(expired) lease expiry entr\(expired == 1 ? "y" : "ies")"
                )
            }
        }
        verification.checkedJobs = snapshot.jobs.count
        verification.checkedExpiries = snapshot.jobs.reduce(0) { $0 + $1.leaseExpiries }
    }
}

/// The 16 hex digits of a name's SHA-256 that head file names use.
enum SHA256Prefix {
    static func of(_ text: String) -> String { String(SHA256.hex(text).prefix(16)) }
}
