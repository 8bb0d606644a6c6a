#if canImport(Glibc)
    import Glibc
#endif
import Digest
import Foundation
import HTTP
import Heal
import Support

/// What happened to one candidate, for people and for other systems: the signal, the candidate,
/// the decision and what was done (or why nothing was).
public struct Notification: Sendable, Hashable, Codable {
    /// When (ISO 8601).
    public var time: String
    /// The repository.
    public var repository: String
    /// The signal.
    public var signal: SignalSummary
    /// The candidate: actor, description, files, confidence, SHA-256 of the patch.
    public var candidate: NotifiedCandidate
    /// The decision.
    public var decision: Decision
    /// What was done: `notified`, `proposed`, `applied`.
    public var action: String
    /// The proposal, when one was made.
    public var proposal: String?
    /// The branch, when one was created.
    public var branch: String?
    /// The commit, when one was made.
    public var commit: String?
    /// The pull request, when one was opened.
    public var pullRequest: String?
    /// Why no action was taken (Observer), or why less than asked.
    public var reason: String
}

/// The candidate as a notification carries it (no patch text: its hash).
public struct NotifiedCandidate: Sendable, Hashable, Codable {
    /// The heal actor.
    public var actor: String
    /// One line.
    public var description: String
    /// Files touched.
    public var files: [String]
    /// Confidence in [0, 1].
    public var confidence: Double
    /// Lines added plus removed.
    public var changedLines: Int
    /// SHA-256 of the patch.
    public var patchSHA256: String

    /// The summary of `candidate`.
    public init(_ candidate: Candidate) {
        actor = candidate.actor.rawValue
        description = candidate.description
        files = candidate.files
        confidence = candidate.confidence.value
        changedLines = candidate.changedLines
        patchSHA256 = SHA256.hex(candidate.patch)
    }
}

/// Delivers notifications to a JSON-lines file and a webhook (POST, JSON body) as the policy
/// names them. Delivery failures are warnings: a notification channel that is down must not
/// undo a decision that is already recorded in the audit log.
public struct Notifier: Sendable {
    /// JSON-lines file to append to (absolute).
    public var file: String?
    /// Webhook URL.
    public var webhook: String?
    /// How requests are sent (tests substitute a loopback server's client).
    public var send: @Sendable (HTTPRequest) throws -> (HTTPResponse, [UInt8])
    /// What every line written and every body posted goes through (a signal's text may quote a secret).
    public var redactor: Redactor

    /// A notifier; see the properties.
    public init(
        file: String?, webhook: String?,
        send: @escaping @Sendable (HTTPRequest) throws -> (HTTPResponse, [UInt8]) = HTTPClient.send,
        redactor: Redactor = Redactor()
    ) {
        self.file = file
        self.webhook = webhook
        self.send = send
        self.redactor = redactor
    }

    /// The notification as one line of JSON.
    public static func json(_ notification: Notification) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(notification))
    }

    /// Delivers `notification`; returns one warning per channel that failed.
    public func deliver(_ notification: Notification) -> [String] {
        guard file != nil || webhook != nil else { return [] }
        guard let encoded = try? Self.json(notification) else { return ["notification: cannot encode"] }
        let body = redactor.redact(encoded)
        var warnings: [String] = []
        if let file {
            if let failure = Self.append(body + [0x0A], to: file) { warnings.append("notification file \(failure)") }
        }
        if let webhook {
            do {
                let request = HTTPRequest(
                    url: webhook, method: "POST", headers: ["Content-Type": "application/json", "User-Agent": "sentinel"],
                    body: body, timeout: 10, maxBytes: 1 << 20)
                let (response, _) = try send(request)
                if !(200..<300).contains(response.status) {
                    warnings.append("webhook: HTTP \(response.status)")
                }
            } catch {
                warnings.append(redactor.redact("webhook: \(error)"))
            }
        }
        return warnings
    }

    /// One `write` with `O_APPEND` (whole lines from concurrent writers never interleave), no
    /// links followed, created private: `AppendOnlyFile`.
    static func append(_ bytes: [UInt8], to path: String) -> String? {
        do {
            try AppendOnlyFile(path: path).append(bytes)
            return nil
        } catch let error as SentinelError {
            return error.message
        } catch {
            return "\(error)"
        }
    }
}
