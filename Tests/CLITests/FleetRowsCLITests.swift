import Foundation
import Store
import Testing

/// Hostile inputs round 3, findings 16 and 17: `fleet jobs` prints what anyone who may submit
/// wrote into the queue; nothing of it drives the operator's terminal, and one row it cannot read
/// is named on stderr while the others are listed.
struct FleetRowsCLITests {
    @Test("fleet jobs escapes controls from rows and lists the rest past an unreadable row")
    func hostileRows() throws {
        let path = NSTemporaryDirectory() + "fleet-rows-" + UUID().uuidString + "/fleet.sqlite"
        let environment = try CLI.fleetEnvironment(database: "sqlite:" + path)
        let queue = try JobQueue(url: .sqlite(path: path))
        let shown = try queue.submit(JobRequest(kind: .scan, spec: "{}", repository: "repo\u{1b}]0;owned\u{07}\u{202e}gpj.exe"))
        let odd = try queue.submit(JobRequest(kind: .scan, spec: "{}", repository: "r"))
        try Database(path: path).execute("UPDATE fleet_jobs SET kind = 'x\u{1b}[2J' WHERE id = \(odd)")
        let listed = try CLI.run(["fleet", "jobs"], environment: environment)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout == "\(shown)  scan  queued  0/5  repo\\x1b]0;owned\\x07\\u{202e}gpj.exe\n")
        #expect(listed.stderr == "sentinel: warning: fleet_jobs row \(odd): unknown kind 'x\\x1b[2J'; not shown\n")
    }
}
