import Findings
import Foundation
import Support
import Testing

@testable import Heal
@testable import Signals

/// Signal files under Fixtures/signals, read in place.
enum SignalFixture {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Fixtures/signals"
    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
    }
}

@Suite("Signals")
struct SignalTests {
    @Test(
        "pytest output in every traceback style names both failing tests and the innermost frame",
        arguments: ["pytest-short.txt", "pytest-long.txt", "pytest-line.txt", "pytest-native.txt", "pytest-rA.txt"])
    func pytestOutput(name: String) throws {
        let signals = try SignalReader.read(try SignalFixture.data(name), name: name)
        let signal = try #require(signals.first)
        #expect(signals.count == 1)
        #expect(signal.kind == .testFailure)
        #expect(signal.source == "pytest")
        #expect(signal.failingTests == ["tests/test_calc.py::test_mean", "tests/test_calc.py::test_empty"])
        #expect(signal.exceptionType == "AssertionError")
        #expect(signal.message.hasPrefix("2 failing tests: tests/test_calc.py::test_mean - assert 6.0 == 3"))
        let first = try #require(signal.locations.first)
        #expect(first.file.hasSuffix("tests/test_calc.py"))
        #expect(first.line == 7)
    }

    @Test("-rA output lists the passing tests too; the closing line gives the counts")
    func pytestPassingTests() throws {
        let report = PytestReport(output: String(decoding: try SignalFixture.data("pytest-rA.txt"), as: UTF8.self))
        #expect(report.passed == ["tests/test_calc.py::test_first"])
        #expect(report.counts == ["failed": 2, "passed": 1])
        let empty = try #require(report.failures.first { $0.test.hasSuffix("test_empty") })
        #expect(empty.exceptionType == "IndexError")
        #expect(empty.locations.map(\.line) == [15, 6])
        #expect(empty.details == ["IndexError: list index out of range"])
    }

    @Test("-v lines give outcomes")
    func pytestVerbose() throws {
        let report = PytestReport(output: String(decoding: try SignalFixture.data("pytest-verbose.txt"), as: UTF8.self))
        #expect(report.passed == ["tests/test_calc.py::test_first"])
        #expect(report.failed == ["tests/test_calc.py::test_mean", "tests/test_calc.py::test_empty"])
    }

    @Test("JUnit XML: failing cases become test ids, the failure text gives the frames")
    func junit() throws {
        let signal = try #require(try SignalReader.read(try SignalFixture.data("junit.xml"), name: "j.xml").first)
        #expect(signal.source == "junit")
        #expect(signal.failingTests == ["tests/test_calc.py::test_mean", "tests/test_calc.py::test_empty"])
        #expect(signal.locations.first?.file == "tests/test_calc.py")
        #expect(signal.locations.first?.line == 7)
        #expect(signal.exceptionType == "AssertionError")
    }

    @Test("a chained traceback: the last exception, innermost frame first")
    func traceback() throws {
        let signal = try #require(try SignalReader.read(try SignalFixture.data("traceback.txt"), name: "t").first)
        #expect(signal.kind == .exception)
        #expect(signal.exceptionType == "shop.errors.CheckoutError")
        #expect(signal.message == "CheckoutError: cannot total an empty cart")
        #expect(signal.locations.map(\.line) == [55, 9, 12])
        #expect(signal.topFrames == ["shop/cart.py:checkout", "app/main.py:main", "app/main.py:<module>"])
    }

    @Test("JSON log lines: the error line's exception traceback")
    func jsonLog() throws {
        let signal = try #require(try SignalReader.read(try SignalFixture.data("log.jsonl"), name: "log").first)
        #expect(signal.source == "json-log")
        #expect(signal.exceptionType == "ZeroDivisionError")
        #expect(signal.message == "checkout failed: ZeroDivisionError: division by zero")
        #expect(signal.locations.first?.line == 41)
    }

    @Test("a single JSON log object without a traceback")
    func jsonLogWithoutTraceback() throws {
        let line = #"{"levelname": "ERROR", "msg": "payment gateway refused", "pathname": "pay.py", "lineno": 9}"#
        let signal = try #require(try SignalReader.read(Data(line.utf8), name: "l").first)
        #expect(signal.kind == .logError)
        #expect(signal.message == "payment gateway refused")
        #expect(signal.locations == [Signal.Location(file: "pay.py", line: 9)])
    }

    static func report() -> Report {
        let code = Finding(
            ruleId: "python.yaml-load", severity: .medium, confidence: .high, message: "yaml.load is unsafe",
            location: Location(file: "app/config.py", startLine: 4, startColumn: 8), snippet: "yaml.load(text)")
        let dependency = Finding(
            ruleId: "PYSEC-2021-142", tool: "osv", severity: .critical, confidence: .high,
            message: "pyyaml 5.3.1 is affected", location: Location(file: "requirements.txt", startLine: 2),
            snippet: "pyyaml==5.3.1",
            facts: FindingFacts(
                dependency: DependencyFacts(
                    package: "pyyaml", installedVersion: "5.3.1", ecosystem: "PyPI", fixedVersions: ["5.4"],
                    smallestFixedVersion: "5.4", aliases: ["CVE-2020-14343"])))
        return Report(findings: [code, dependency])
    }

    @Test("SARIF and JSON reports: one signal per finding, most severe first", arguments: [OutputFormat.sarif, .json])
    func reports(format: OutputFormat) throws {
        let text = format.renderer().render(Self.report())
        let signals = try SignalReader.read(Data(text.utf8), name: "r")
        #expect(signals.map(\.kind) == [.vulnerableDependency, .finding])
        let dependency = try #require(signals[0].dependency)
        #expect(dependency.package == "pyyaml")
        #expect(dependency.installed == "5.3.1")
        #expect(dependency.fixedVersions == ["5.4"])
        #expect(dependency.manifest == "requirements.txt")
        #expect(dependency.advisories == ["PYSEC-2021-142", "CVE-2020-14343"])
        #expect(signals[1].ruleId == "python.yaml-load")
        #expect(signals[1].locations == [Signal.Location(file: "app/config.py", line: 4)])
        let code = Self.report().findings[0]
        #expect(signals[1].findingFingerprint == code.fingerprint)
        let picked = try SignalReader.read(Data(text.utf8), name: "r", finding: "python.yaml-load")
        #expect(picked.map(\.ruleId) == ["python.yaml-load"])
        let byPrint = try SignalReader.read(Data(text.utf8), name: "r", finding: String(code.fingerprint.prefix(8)))
        #expect(byPrint.map(\.ruleId) == ["python.yaml-load"])
        #expect(throws: SentinelError.self) { try SignalReader.read(Data(text.utf8), name: "r", finding: "nope") }
    }

    @Test(
        "garbage is refused with a message naming the file and what was expected",
        arguments: [
            "", "   \n", "hello world\n", "<html><body>hi</body></html>", "{\"a\": 1}", "{\"findings\": 3}",
            "\u{0}\u{1}\u{2}binary", "==== 3 passed in 0.01s ====\n",
        ])
    func garbage(text: String) {
        do {
            _ = try SignalReader.read(Data(text.utf8), name: "sig.txt")
            Issue.record("accepted \(text.debugDescription)")
        } catch let error as SentinelError {
            #expect(error.code == .invalidInput)
            #expect(error.message.hasPrefix("sig.txt: "))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("fingerprints ignore line numbers and numbers in messages, not the failing tests")
    func fingerprints() {
        let a = Signal(kind: .testFailure, source: "pytest", message: "x", failingTests: ["t::a", "t::b"])
        let b = Signal(kind: .testFailure, source: "junit", message: "y", failingTests: ["t::b", "t::a"])
        let c = Signal(kind: .testFailure, source: "pytest", message: "x", failingTests: ["t::a"])
        #expect(a.fingerprint == b.fingerprint)
        #expect(a.fingerprint != c.fingerprint)
        let e1 = Signal(kind: .logError, source: "json-log", message: "index 7 out of range")
        let e2 = Signal(kind: .logError, source: "json-log", message: "index 12 out of range")
        #expect(e1.fingerprint == e2.fingerprint)
    }
}
