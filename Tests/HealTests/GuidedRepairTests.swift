import Foundation
import Sandbox
import TestSupport
import ScanCore
import Testing

@testable import Heal
@testable import Signals

/// Every candidate `template` makes in `source` (a file `m.py`, every line run by the failing
/// tests with suspiciousness 1) for the output `compared`.
func guidedRepairs(_ template: any GuidedRepairTemplate, _ source: String, _ compared: [ComparedValues]) throws
    -> [RepairCandidate]
{
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false).indices.map {
        SuspiciousLine(file: "m.py", line: $0 + 1, score: 1)
    }
    return try RepairGenerator(templates: [], guided: [template]).candidates(
        sources: ["m.py": source], suspicious: lines, top: 1, difference: OutputDifference(compared))
}

@Suite("Output-guided repair")
struct GuidedRepairTests {
    static let judgeOutput = """
        .F.                                                                      [100%]
        =================================== FAILURES ===================================
        ___________________________ test_case[sample_02.txt] ___________________________
        sample_02.txt: wrong answer
        --- input ---
        6
        5 4

        --- expected output ---
        Draw

        --- actual output ---
        Drow

        ___________________________ test_case[sample_03.txt] ___________________________
        sample_03.txt: wrong answer
        --- input ---
        1
        --- expected output ---
        Win
        Draw
        --- actual output ---
        Win
        Drow
        =========================== short test summary info ============================
        FAILED test_prog.py::test_case[sample_02.txt] - Failed: sample_02.txt: wrong ...
        """

    @Test("blocks under expected/actual headers are read, and the input block is not")
    func judgeBlocks() {
        #expect(
            ComparedValues.parse(Self.judgeOutput) == [
                ComparedValues(expected: "Draw", actual: "Drow"), ComparedValues(expected: "Win\nDraw", actual: "Win\nDrow"),
            ])
    }

    @Test("pytest's and unittest's assertion lines and inline headers are read; other lines are not")
    func assertionLines() {
        let output = """
            E       AssertionError: assert 'Drow' == 'Draw'
            E         - Draw
            E       assert 3 == 4
            AssertionError: 'YES' != 'Yes'
            E       assert f(1) == 2
            Expected: 10
            Actual: 9
            expected a value, got none
            """
        #expect(
            ComparedValues.parse(output) == [
                ComparedValues(expected: "Draw", actual: "Drow"), ComparedValues(expected: "4", actual: "3"),
                ComparedValues(expected: "Yes", actual: "YES"), ComparedValues(expected: "10", actual: "9"),
            ])
        #expect(ComparedValues.parse("1 failed, 2 passed in 0.55s\nexpected: nothing here") == [])
    }

    @Test("the difference: missing and extra tokens, extra lines, a common shift, the answer printed among more")
    func difference() {
        let shifted = OutputDifference([ComparedValues(expected: "2 1", actual: "1 0"), ComparedValues(expected: "1 1", actual: "0 0")])
        #expect(shifted.shift == 1)
        #expect(shifted.missing == ["2"])
        // One number off by one is not a shift: the print is not where the slip is.
        #expect(OutputDifference([ComparedValues(expected: "3", actual: "2")]).shift == nil)
        #expect(OutputDifference([ComparedValues(expected: "2 5", actual: "1 3")]).shift == nil)
        let more = OutputDifference([ComparedValues(expected: "2", actual: "[1, 2, 2] 2")])
        #expect(more.printedMoreTokens && more.expectedWithin)
        #expect(more.extraLines == ["[1, 2, 2] 2"])
        let debug = OutputDifference([ComparedValues(expected: "3", actual: "total: 3\n3")])
        #expect(debug.extraLines == ["total: 3"])
        #expect(OutputDifference([]).isEmpty)
    }

    @Test("a printed word is spelled as expected: case slips and one-letter typos, nothing else")
    func expectedLiteral() throws {
        let source = "if a > b: print('Win')\nelse: print(\"Drow\")\nprint('YES', n)\n"
        let compared = [
            ComparedValues(expected: "Draw", actual: "Drow"), ComparedValues(expected: "Yes 3", actual: "YES 3"),
        ]
        #expect(
            Set(try guidedRepairs(ExpectedLiteralTemplate(), source, compared).map(\.description)) == [
                "line 2: `\"Drow\"` → `\"Draw\"`", "line 3: `'YES'` → `'Yes'`",
            ])
        // `Lose` is too far from `Draw`; a number is not a spelling.
        #expect(try guidedRepairs(ExpectedLiteralTemplate(), "print('Lose')\n", [ComparedValues(expected: "Draw", actual: "Lose")]).isEmpty)
        #expect(try guidedRepairs(ExpectedLiteralTemplate(), "print('12')\n", [ComparedValues(expected: "13", actual: "12")]).isEmpty)
    }

    @Test("prints of lines not expected are deleted, those echoing the extra lines first and together")
    func extraOutput() throws {
        let source = """
            total = 0
            for x in xs:
                total += x
                print("total: " + str(total))
                print("start:", x)
            print(total)

            """
        let compared = [ComparedValues(expected: "3", actual: "total: 1\nstart: 1\ntotal: 3\nstart: 2\n3")]
        let candidates = try guidedRepairs(ExtraOutputTemplate(), source, compared)
        #expect(
            candidates.map(\.description) == [
                "line 5: delete `print(\"start:\", x)`", "line 4: delete `print(\"total: \" + str(total))`",
                "lines 4, 5: delete the prints of lines not expected", "line 6: delete `print(total)`",
            ])
        #expect(candidates[2].change.after == "total = 0\nfor x in xs:\n    total += x\nprint(total)\n")
        #expect(try guidedRepairs(ExtraOutputTemplate(), source, [ComparedValues(expected: "3", actual: "4")]).isEmpty)
    }

    @Test("a print argument too many is dropped, the first one first")
    func dropPrintArgument() throws {
        let candidates = try guidedRepairs(
            DropPrintArgumentTemplate(), "print(d, max(d), sep=' ')\n", [ComparedValues(expected: "2", actual: "[1, 2] 2")])
        #expect(candidates.compactMap(\.change.after) == ["print(max(d), sep=' ')\n", "print(d, sep=' ')\n"])
        #expect(
            try guidedRepairs(DropPrintArgumentTemplate(), "print(a, b)\n", [ComparedValues(expected: "2 1", actual: "1 0")])
                .isEmpty)
    }

    @Test("every printed position shifted by the same one shifts the print's arguments")
    func oneBasedOutput() throws {
        let candidates = try guidedRepairs(
            OneBasedOutputTemplate(), "print(i, j, 'x')\nprint(k - 1)\n",
            [ComparedValues(expected: "2 1 x", actual: "1 0 x")])
        #expect(
            candidates.compactMap(\.change.after).sorted() == ["print(i + 1, j + 1, 'x')\nprint(k - 1)\n", "print(i, j, 'x')\nprint(k)\n"])
    }

    @Test("a container printed whole prints its items, one per line when they were expected so")
    func itemsOutput() throws {
        let source = "res = ['Yes', 'No']\nprint(res)\nprint('done')\n"
        let perLine = try guidedRepairs(
            ItemsOutputTemplate(), source, [ComparedValues(expected: "Yes\nNo", actual: "['Yes', 'No']")])
        #expect(perLine.compactMap(\.change.after) == ["res = ['Yes', 'No']\nprint(*res, sep=\"\\n\")\nprint('done')\n"])
        let spaced = try guidedRepairs(ItemsOutputTemplate(), source, [ComparedValues(expected: "1 2", actual: "[1, 2]")])
        #expect(spaced.compactMap(\.change.after) == ["res = ['Yes', 'No']\nprint(*res)\nprint('done')\n"])
        #expect(try guidedRepairs(ItemsOutputTemplate(), source, [ComparedValues(expected: "1 3", actual: "[1, 2]")]).isEmpty)
    }

    @Test(
        "a misspelt word on a line coverage ranks low is the first attempt, aimed by pytest's assertion",
        .enabled(if: TestHost.canSandbox, "verifies candidates in the sandbox: needs root and user namespaces"))
    func loopAimsByOutput() throws {
        let project = try ScratchProject([
            "game.py": """
            def verdict(a, b):
                if a > b:
                    return "Win"
                if a < b:
                    return "Lose"
                return "Drow"

            """,
            "tests/test_game.py": """
            import sys, os
            sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
            from game import verdict


            def test_draw():
                assert verdict(2, 2) == "Draw"


            def test_win():
                assert verdict(3, 2) == "Win"

            """,
        ])
        let request = HealRequest(
            repository: project.path,
            signals: [
                Signal(
                    kind: .testFailure, source: "pytest", message: "1 failing test: tests/test_game.py::test_draw",
                    failingTests: ["tests/test_game.py::test_draw"], exceptionType: "AssertionError")
            ],
            verify: "python3 -m pytest -q", profile: try ProfileStore.standard(syntax: .yaml).resolve("fix-verify"),
            actors: [RepairActor()], maxSeconds: 300, jobs: 1)
        let outcome = try HealLoop(memory: nil).run(request)
        #expect(outcome.candidate?.strategy == "expected-literal")
        #expect(outcome.attempts.count == 1)
        #expect(outcome.candidate?.changes.first?.after?.contains("return \"Draw\"") == true)
        // The evidence says what was checked: the failing test itself, and the files the tests are.
        #expect(outcome.candidate?.checks?.failingTestsPassed == ["tests/test_game.py::test_draw"])
        #expect(outcome.candidate?.checks?.testFiles == ["tests/test_game.py"])
    }
}
