import Foundation
import Support

/// Polls a ZAP scan's status until it reports 100 or the deadline passes, then stops it.
struct ZAPPoller {
    let client: ZAPClient
    let deadline: ContinuousClock.Instant
    /// Seconds between polls.
    let interval: Double

    /// Waits for `scan` (`spider` or `ascan`) number `id`. Returns `nil` when it finished, or
    /// why it was cut short (`spider at 40%`) after asking ZAP to stop it.
    func waitFor(scan: String, id: String) throws -> String? {
        while true {
            let answer = try client.call("\(scan)/view/status", [("scanId", id)])
            guard let text = answer["status"]?.scalarText, let status = Int(text) else {
                throw ZAPScan.missing("status", step: "\(scan)/view/status")
            }
            if status >= 100 { return nil }
            guard sleepBeforeNextPoll() else {
                // Stopping is best effort: the findings so far are read either way.
                _ = try? client.call("\(scan)/action/stop", [("scanId", id)])
                let name = scan == "spider" ? "spider" : "active scan"
                return "\(name) at \(max(0, status))%"
            }
        }
    }

    /// Waits until ZAP's passive scanner has no records left; returns why it was cut short, or
    /// `nil`. (A ZAP without the passive scan API counts as done.)
    func waitForPassiveScan() throws -> String? {
        while true {
            guard let answer = try? client.call("pscan/view/recordsToScan"),
                let text = answer["recordsToScan"]?.scalarText, let left = Int(text)
            else { return nil }
            if left <= 0 { return nil }
            guard sleepBeforeNextPoll() else { return "passive scan with \(left) record(s) left" }
        }
    }

    /// Sleeps one interval (less when the deadline is nearer); false when the deadline has passed.
    private func sleepBeforeNextPoll() -> Bool {
        let now = ContinuousClock.now
        guard now < deadline else { return false }
        let remaining = now.duration(to: deadline)
        let pause = min(Duration.milliseconds(Int64(max(0.01, interval) * 1000)), remaining)
        Thread.sleep(forTimeInterval: Double(pause.components.seconds) + Double(pause.components.attoseconds) / 1e18)
        return true
    }
}
