import Foundation
import TestSupport
import Testing

/// `scripts/check-architecture.py` keeps docs/DESIGN.md's module map and the code in step, both
/// ways (issue 57): a module under Sources/ the page does not list fails, and so does a name on
/// the page that is no module. Its deny-list keeps one mechanism per job: a lock the old way, a
/// parallel loop outside Support's ParallelFor or a new JSONSerialization fails.
@Suite struct ArchitectureCheckTests {
    static let script = CLI.packageRoot + "/scripts/check-architecture.py"

    func check(design: String? = nil) throws -> CLI.Result {
        try CLI.runProgram("/usr/bin/python3", [Self.script] + (design.map { ["--design", $0] } ?? []), timeout: 600)
    }

    @Test func theRepositoryPassesAndADoctoredMapFailsBothWays() throws {
        let clean = try check()
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")

        let page = try String(contentsOfFile: CLI.packageRoot + "/docs/DESIGN.md", encoding: .utf8)
        #expect(page.contains("\n  Fleet/ "))
        let directory = try CLI.tree([:], prefix: "sentinel-design")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let doctored = directory + "/DESIGN.md"
        try page.replacingOccurrences(of: "\n  Fleet/ ", with: "\n  Fleeet/").write(
            toFile: doctored, atomically: false, encoding: .utf8)
        let failed = try check(design: doctored)
        #expect(failed.status == 1)
        let output = failed.stdout + failed.stderr
        #expect(output.contains("DESIGN.md: §1 does not list the module Sources/Fleet"), "\(output)")
        #expect(output.contains("DESIGN.md: §1 lists Fleeet/, which is no module under Sources/"), "\(output)")
    }

    @Test func aLockOrAParallelLoopPlantedInACopyFails() throws {
        // A copy of what the check reads (the script runs on the tree it sits in), with one file planted.
        let copy = try CLI.tree([:], prefix: "sentinel-deny")
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try FileManager.default.createDirectory(atPath: copy + "/docs", withIntermediateDirectories: true)
        for item in ["Sources", "scripts", "Package.swift", "docs/DESIGN.md"] {
            try FileManager.default.copyItem(atPath: CLI.packageRoot + "/" + item, toPath: copy + "/" + item)
        }
        let script = copy + "/scripts/check-architecture.py"
        let clean = try CLI.runProgram("/usr/bin/python3", [script], timeout: 600)
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")

        // Spelled in pieces so that this file itself does not use what it plants.
        let lock = "NS" + "Lock"
        let parallel = "DispatchQueue." + "concurrentPerform"
        let planted = """
            import Foundation

            // A comment naming \(lock) is no use of it.
            let planted = \(lock)()
            func loop() { \(parallel)(iterations: 2) { _ in } }

            """
        try planted.write(toFile: copy + "/Sources/Support/Planted.swift", atomically: false, encoding: .utf8)
        let failed = try CLI.runProgram("/usr/bin/python3", [script], timeout: 600)
        #expect(failed.status == 1)
        let output = failed.stdout + failed.stderr
        #expect(output.contains("Sources/Support/Planted.swift:4: \(lock) is not allowed here (use Synchronization.Mutex)"), "\(output)")
        #expect(output.contains("Sources/Support/Planted.swift:5: \(parallel) is not allowed here (use ParallelFor"), "\(output)")
        #expect(!output.contains("Planted.swift:3:"), "\(output)")
        #expect(output.contains("2 problem(s)"), "\(output)")
    }
}
