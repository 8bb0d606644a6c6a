import Foundation
import Heal
import Support
import Testing

@Suite("CoverageTracer end to end", .enabled(if: PythonProject.hasPytest, "needs /usr/bin/python3 with pytest"))
struct CoverageTracerEndToEndTests {
    static let pricing = """
        def discount(total, member):
            rate = 0
            if member:
                if total > 100:  # members get 10% from 100 on
                    rate = 10
            return total - total * rate // 100

        """

    static let pricingTests = """
        from shop.pricing import discount


        def test_small_order():
            assert discount(50, False) == 50


        def test_large_order():
            assert discount(200, False) == 200


        def test_member_large_order():
            assert discount(200, True) == 180


        def test_member_at_threshold():
            assert discount(100, True) == 90

        """

    @Test("the buggy line ranks first and the candidates hold the fix, which makes the suite pass")
    func localisesAndRepairs() throws {
        let project = try PythonProject(files: [
            "shop/__init__.py": "", "shop/pricing.py": Self.pricing, "tests/test_pricing.py": Self.pricingTests,
        ])
        defer { project.remove() }
        let run = try project.pytest(["-q", "-p", CoverageTracer.moduleName])
        #expect(run.status == 1)
        let spectrum = try CoverageTracer.parse(output: run.output)
        #expect(spectrum.tests.map(\.outcome) == [.passed, .passed, .passed, .failed])
        #expect(spectrum.tests[3].id == "tests/test_pricing.py::test_member_at_threshold")
        // Only the project's own source: not the tests, not pytest, not the stdlib.
        #expect(Set(spectrum.tests.flatMap(\.lines).map(\.file)) == ["shop/pricing.py"])
        #expect(spectrum.tests[3].lines == Set([2, 3, 4, 6].map { SourceLine(file: "shop/pricing.py", line: $0) }))

        let ranked = Ochiai.rank(spectrum)
        #expect(ranked.first.map { "\($0.file):\($0.line)" } == "shop/pricing.py:4")
        // Run by the failing test and one passing test: 1/sqrt(1*2); the next line is far behind.
        #expect(ranked.first?.score == 1 / 2.0.squareRoot())
        #expect(ranked.count > 1 && ranked[1].score < ranked[0].score)

        let candidates = try RepairGenerator().candidates(
            sources: ["shop/pricing.py": Self.pricing], suspicious: ranked, top: 5, limit: 50)
        let fixed = Self.pricing.replacingOccurrences(of: "if total > 100:", with: "if total >= 100:")
        let fix = try #require(candidates.first { $0.change.after == fixed })
        #expect(fix.description == "line 4: `>` → `>=`")
        #expect(fix.template == "comparison-operator")
        #expect(candidates.first?.score == fix.score)

        try project.write("shop/pricing.py", fixed)
        let rerun = try project.pytest(["-q", "-p", CoverageTracer.moduleName])
        #expect(rerun.status == 0)
        #expect(try CoverageTracer.parse(output: rerun.output).tests.allSatisfy { $0.outcome == .passed })
    }

    @Test("run from a subdirectory, the tracer covers the project named by SENTINEL_HEAL_TRACE_ROOT")
    func rootOverride() throws {
        let project = try PythonProject(files: [
            "shop/__init__.py": "", "shop/pricing.py": Self.pricing, "tests/test_pricing.py": Self.pricingTests,
        ])
        defer { project.remove() }
        let inside = try project.pytest(["-q"], addopts: CoverageTracer.pytestOption, in: "tests")
        // pytest's rootdir is tests/ here: the package above it is outside and not traced.
        #expect(try CoverageTracer.parse(output: inside.output).tests.allSatisfy { $0.lines.isEmpty })
        let named = try project.pytest(
            ["-q"], addopts: CoverageTracer.pytestOption, in: "tests",
            environment: [CoverageTracer.rootEnvironmentVariable: project.root])
        let spectrum = try CoverageTracer.parse(output: named.output)
        #expect(spectrum.tests.count == 4)
        #expect(Ochiai.rank(spectrum).first.map { "\($0.file):\($0.line)" } == "shop/pricing.py:4")
    }

    @Test("a command that sets PYTHONPATH itself (src layout): the plugin loads from its user site")
    func ownPythonPath() throws {
        let project = try PythonProject(files: [
            "src/shop/__init__.py": "", "src/shop/pricing.py": Self.pricing, "tests/test_pricing.py": Self.pricingTests,
        ])
        defer { project.remove() }
        // What `PYTHONPATH=src pytest` does to the PYTHONPATH heal set: the plugin's directory is gone.
        let own = ["PYTHONPATH": project.root + "/src"]
        let lost = try project.pytest(["-q"], addopts: CoverageTracer.pytestOption, environment: own)
        #expect(lost.status != 0)
        #expect(CoverageTracer.pluginNotImported(in: lost.output))
        #expect(throws: SentinelError.self) { try CoverageTracer.parse(output: lost.output) }

        let environment = CoverageTracer.environment(directory: project.pluginDirectory, workspace: project.root, merging: [:])
        var userSite = own
        userSite["PYTHONUSERBASE"] = environment["PYTHONUSERBASE"]
        let run = try project.pytest(["-q"], addopts: CoverageTracer.pytestOption, environment: userSite)
        #expect(run.status == 1)
        let spectrum = try CoverageTracer.parse(output: run.output)
        #expect(spectrum.tests.map(\.outcome) == [.passed, .passed, .passed, .failed])
        #expect(Ochiai.rank(spectrum).first.map { "\($0.file):\($0.line)" } == "src/shop/pricing.py:4")
    }

    @Test("the plugin as a module at the project's root (python -m pytest): loaded, never traced as the project's")
    func pluginAtTheRoot() throws {
        let project = try PythonProject(files: [
            "src/shop/__init__.py": "", "src/shop/pricing.py": Self.pricing, "tests/test_pricing.py": Self.pricingTests,
            "\(CoverageTracer.moduleName).py": CoverageTracer.pluginSource,
        ])
        defer { project.remove() }
        let run = try project.pytest(
            ["-q"], addopts: CoverageTracer.pytestOption, environment: ["PYTHONPATH": project.root + "/src", "PYTHONNOUSERSITE": "1"])
        let spectrum = try CoverageTracer.parse(output: run.output)
        #expect(spectrum.tests.count == 4)
        #expect(Set(spectrum.tests.flatMap(\.lines).map(\.file)) == ["src/shop/pricing.py"])
        #expect(spectrum.importers.keys.allSatisfy { $0.hasPrefix("src/") }, "\(spectrum.importers)")
    }

    static let outcomeTests = """
        import pytest
        from shop.pricing import discount


        @pytest.fixture
        def broken():
            raise RuntimeError("setup fails")


        @pytest.fixture
        def leaky():
            yield 1
            raise RuntimeError("teardown fails")


        def test_setup_fails(broken):
            pass


        def test_teardown_fails(leaky):
            assert discount(1, False) == 1


        def test_skipped():
            pytest.skip("not today")


        @pytest.mark.xfail
        def test_expected_failure():
            assert discount(1, True) == 0


        def test_prints_a_forged_block():
            print("\\n@@SENTINEL-TRACE-BEGIN@@\\n{\\"version\\":1,\\"files\\":[],\\"tests\\":[]}\\n@@SENTINEL-TRACE-END@@")


        def test_fails():
            assert discount(100, True) == 90


        def test_after_the_failure():
            assert discount(5, False) == 5

        """

    @Test("outcomes: setup failure fails, teardown failure is an error, skip and xfail skip")
    func outcomes() throws {
        let project = try PythonProject(files: [
            "shop/__init__.py": "", "shop/pricing.py": Self.pricing, "tests/test_outcomes.py": Self.outcomeTests,
        ])
        defer { project.remove() }
        // -s: nothing is captured, so the forged block reaches stdout before the real one.
        let run = try project.pytest(["-q", "-s", "tests/"], addopts: CoverageTracer.pytestOption)
        let outcomes = Dictionary(
            uniqueKeysWithValues: try CoverageTracer.parse(output: run.output).tests.map {
                ($0.id.split(separator: ":").last.map(String.init) ?? $0.id, $0.outcome)
            })
        #expect(
            outcomes == [
                "test_setup_fails": .failed, "test_teardown_fails": .error, "test_skipped": .skipped,
                "test_expected_failure": .skipped, "test_prints_a_forged_block": .passed, "test_fails": .failed,
                "test_after_the_failure": .passed,
            ])
    }

    @Test("the plugin changes no outcome: same status and summary with and without it, -x included")
    func sameOutcomes() throws {
        let project = try PythonProject(files: [
            "shop/__init__.py": "", "shop/pricing.py": Self.pricing, "tests/test_outcomes.py": Self.outcomeTests,
        ])
        defer { project.remove() }
        for arguments in [["-q"], ["-q", "-x", "tests/"]] {
            let plain = try project.pytest(arguments, traced: false)
            let traced = try project.pytest(arguments, addopts: CoverageTracer.pytestOption)
            #expect(plain.status == traced.status)
            // "1 failed, 3 passed, 1 skipped in 0.11s" without the time.
            let summary: (String) -> String? = { output in
                output.split(separator: "\n").last { $0.range(of: #"^\d+ \w+.* in [0-9.]+s"#, options: .regularExpression) != nil }
                    .map { $0.components(separatedBy: " in ")[0] }
            }
            #expect(summary(plain.output) != nil)
            #expect(summary(plain.output) == summary(traced.output))
            #expect(throws: Never.self) { try CoverageTracer.parse(output: traced.output) }
        }
        // -x stops at the first failure; the document still comes out, without the tests not run.
        let stopped = try CoverageTracer.parse(
            output: try project.pytest(["-q", "-x"], addopts: CoverageTracer.pytestOption).output)
        #expect(stopped.tests.map(\.outcome) == [.failed])
    }
}
