import Foundation
import Sandbox
import Support
import Testing

@testable import Heal

/// How a traced run finds the plugin whatever `PYTHONPATH` the verify command sets, and what
/// heal says when it cannot.
@Suite("CoverageTracer injection")
struct TracerInjectionTests {
    static func run(reason: RunResult.Reason = .exited, exit: Int32 = 1) -> Verification {
        Verification(
            command: "pytest", exitCode: exit, reason: reason, commandMilliseconds: 100, totalMilliseconds: 110,
            cpuMilliseconds: 90, peakMemoryBytes: nil, tests: nil, outputTail: "")
    }

    @Test("install writes the plugin and, for every Python 3 version, a user site whose .pth names its directory")
    func userSite() throws {
        let directory = try ScratchDirectory.make(prefix: "tracer-site")
        defer { ScratchDirectory.remove(directory) }
        let plugin = try CoverageTracer.install(into: directory)
        #expect(plugin == directory + "/sentinel_heal_trace.py")
        for version in ["3.8", "3.11", "3.13", "3.13t", "3.19"] {
            let pth = "\(directory)/userbase/lib/python\(version)/site-packages/sentinel_heal_trace.pth"
            #expect(try String(contentsOfFile: pth, encoding: .utf8) == directory + "\n", "\(pth)")
        }
    }

    @Test("a traced run's variables: the plugin first on PYTHONPATH (what was there after it), its user base, the root")
    func environment() {
        let added = CoverageTracer.environment(
            directory: "/t", workspace: "/workspace", merging: ["PYTHONPATH": "/deps", "LANG": "C.UTF-8"])
        #expect(
            added == [
                "PYTHONPATH": "/t:/deps", "PYTHONUSERBASE": "/t/userbase", "SENTINEL_HEAL_TRACE_ROOT": "/workspace",
                "LANG": "C.UTF-8",
            ])
        #expect(CoverageTracer.environment(directory: "/t", workspace: "/w", merging: [:])["PYTHONPATH"] == "/t")
    }

    @Test("a traced run's output without its document is what the tests printed, before and after it")
    func removingTrace() {
        let b = CoverageTracer.beginMarker, e = CoverageTracer.endMarker
        #expect(CoverageTracer.removingTrace(from: "F.\n\(b)\n{\"tests\": []}\n\(e)\n1 failed\n") == "F.\n\n1 failed\n")
        // Only the last document goes: an earlier one is the tests' own text.
        #expect(CoverageTracer.removingTrace(from: "\(b)x\(e) then \(b)y\(e)!") == "\(b)x\(e) then !")
        #expect(CoverageTracer.removingTrace(from: "no document \(e) \(b)") == "no document \(e) \(b)")
        #expect(CoverageTracer.removingTrace(from: "") == "")
    }

    @Test("why a traced run printed no document, in one line each")
    func reasons() {
        let missing = """
            ImportError: Error importing plugin "sentinel_heal_trace": No module named 'sentinel_heal_trace'
            """
        #expect(CoverageTracer.pluginNotImported(in: missing))
        #expect(
            CoverageTracer.missingReason(output: missing, run: Self.run(exit: 4))
                == "the verify command's Python cannot import the tracer plugin sentinel_heal_trace (the command's own "
                + "PYTHONPATH replaces the tracer's, and a virtual environment, python -I, -E or -s, or its own "
                + "PYTHONUSERBASE hides the tracer's user site)")
        #expect(
            CoverageTracer.missingReason(output: "", run: Self.run(reason: .timeout, exit: 124))
                == "the traced run of the verify command timed out")
        #expect(
            CoverageTracer.missingReason(output: "", run: Self.run(reason: .oom, exit: 137))
                == "the traced run of the verify command ended: oom (exit 137)")
        #expect(
            CoverageTracer.missingReason(output: "make: *** [test] Error 2\n", run: Self.run(exit: 2))
                == "the verify command's output is not pytest's (the tracer is a pytest plugin)")
        #expect(
            CoverageTracer.missingReason(output: "1 failed, 2 passed in 0.1s\n", run: Self.run(exit: 1))
                == "pytest ran without the options heal gives it in PYTEST_ADDOPTS (the command clears or replaces "
                + "that variable, env -i for one)")
        let named = "PASSED t.py::a\nPASSED t.py::b\nFAILED t.py::c - assert 1 == 2\n1 failed, 2 passed in 0.1s\n"
        #expect(
            CoverageTracer.missingReason(output: named, run: Self.run(exit: 1))
                == "pytest exited with status 1 without printing the tracer's document")
    }
}
