import Foundation
import TestSupport
import Testing

/// `scripts/check-architecture.py` keeps docs/DESIGN.md's module map and the code in step, both
/// ways (issue 57): a module under Sources/ the page does not list fails, and so does a name on
/// the page that is no module.
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
}
