import Documents
import Findings
import Foundation
import Support

/// Reads a signal file in whatever format it is, detected from its content (never from its
/// name): JUnit XML, a Sentinel SARIF or JSON report, JSON log lines, pytest output, or a Python
/// traceback. Unknown input is `SentinelError(.invalidInput)` naming the file and what was
/// expected.
public enum SignalReader {
    /// The formats `read` accepts, for messages.
    public static let expected =
        "expected pytest output, JUnit XML, a Python traceback, a Sentinel SARIF or JSON report, an SCA finding "
        + "(pip-audit JSON), or a JSON log line"

    /// The largest signal file read (a report of a big project is a few MiB).
    public static let maxBytes = 64 << 20

    /// The signals in `data` (named `name` in errors), the one to work on first. Reports give one
    /// per finding, most severe first; `finding` (a rule id, fingerprint or fingerprint prefix)
    /// keeps only the matching one.
    public static func read(_ data: Data, name: String, finding: String? = nil) throws -> [Signal] {
        guard data.count <= maxBytes else {
            throw SentinelError(.invalidInput, "\(name): signal larger than \(maxBytes >> 20) MiB")
        }
        let text = String(decoding: data, as: UTF8.self)
        let trimmed = text.drop { $0.isWhitespace || $0 == "\u{feff}" }
        guard !trimmed.isEmpty else { throw SentinelError(.invalidInput, "\(name): empty signal; \(expected)") }
        if trimmed.hasPrefix("<") {
            guard let report = JUnitReport.parse(data) else {
                throw SentinelError(.invalidInput, "\(name): XML but not a JUnit report; \(expected)")
            }
            guard let signal = report.signal() else {
                throw SentinelError(.invalidInput, "\(name): JUnit report with no failing test case")
            }
            return try select([signal], finding: finding, name: name)
        }
        if trimmed.hasPrefix("{") {
            if let signals = try jsonSignals(data, text: text, name: name, finding: finding) { return signals }
        }
        let pytest = PytestReport(output: text)
        if pytest.recognized, !pytest.failing.isEmpty {
            return try select([pytest.signal()], finding: finding, name: name)
        }
        if let traceback = PythonTraceback.last(in: text) {
            return try select([traceback.signal(source: "traceback")], finding: finding, name: name)
        }
        if pytest.recognized {
            throw SentinelError(.invalidInput, "\(name): pytest output with no failing test")
        }
        throw SentinelError(.invalidInput, "\(name): unknown signal format; \(expected)")
    }

    /// Reads the file at `path` (not following a final symbolic link), or stdin for `-`.
    public static func read(path: String, finding: String? = nil) throws -> [Signal] {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            data = try BoundedFile.read(path, limit: maxBytes)
        }
        return try read(data, name: path == "-" ? "<stdin>" : path, finding: finding)
    }

    private static func jsonSignals(_ data: Data, text: String, name: String, finding: String?) throws -> [Signal]? {
        if let root = try? JSON.parse(Array(data), file: name), root.isObject {
            if root["runs"] != nil, root["version"] != nil || root["$schema"] != nil {
                let findings = ReportSignals.fromSARIF(root).map { ($0.finding, $0.fromSentinel ? $0.finding.tool : nil) }
                return try reportSignals(findings, source: "sarif", name: name, finding: finding)
            }
            if root["findings"] != nil {
                let findings = try ReportSignals.fromJSON(data, name: name).map { ($0, Optional($0.tool)) }
                return try reportSignals(findings, source: "sentinel-json", name: name, finding: finding)
            }
            if let signals = AuditSignals.signals(root) {
                guard !signals.isEmpty else {
                    throw SentinelError(.invalidInput, "\(name): dependency audit with no vulnerability")
                }
                return try select(signals, finding: finding, name: name)
            }
            if let signal = JSONLogSignal.signal([root]) { return try select([signal], finding: finding, name: name) }
            return nil
        }
        // JSON lines: every non-blank line an object.
        var objects: [DocumentNode] = []
        for line in text.split(whereSeparator: \.isNewline) where !line.allSatisfy(\.isWhitespace) {
            guard let object = try? JSON.parse(Array(line.utf8), file: name), object.isObject else { return nil }
            objects.append(object)
        }
        guard !objects.isEmpty else { return nil }
        guard let signal = JSONLogSignal.signal(objects) else {
            throw SentinelError(.invalidInput, "\(name): JSON log lines with no error-level entry")
        }
        return try select([signal], finding: finding, name: name)
    }

    /// One signal per finding, each with the scanner that raised it when the report says.
    private static func reportSignals(
        _ findings: [(finding: Finding, raisedBy: ToolName?)], source: String, name: String, finding: String?
    ) throws -> [Signal] {
        guard !findings.isEmpty else { throw SentinelError(.invalidInput, "\(name): report with no findings") }
        let signals = ReportSignals.ordered(findings, by: \.finding).map {
            ReportSignals.signal($0.finding, source: source, raisedBy: $0.raisedBy)
        }
        return try select(signals, finding: finding, name: name)
    }

    private static func select(_ signals: [Signal], finding: String?, name: String) throws -> [Signal] {
        guard let finding, !finding.isEmpty else { return signals }
        let chosen = signals.filter {
            $0.ruleId == finding || $0.findingFingerprint == finding || $0.fingerprint == finding
                || ($0.findingFingerprint?.hasPrefix(finding) ?? false) || $0.fingerprint.hasPrefix(finding)
        }
        guard !chosen.isEmpty else {
            let known = signals.prefix(5).map { $0.ruleId ?? $0.fingerprint }.joined(separator: ", ")
            throw SentinelError(.invalidInput, "\(name): no finding matches '\(finding)' (the report has: \(known))")
        }
        return chosen
    }
}

extension PytestReport {
    /// One test-failure signal for everything that failed; positions of the first failure,
    /// innermost first.
    func signal() -> Signal {
        let tests = failing
        let first = failures.first { tests.contains($0.test) } ?? failures.first
        let inner = Array((first?.locations ?? []).reversed())
        let head = first.map { "\($0.test)\($0.message.isEmpty ? "" : " - \($0.message)")" } ?? tests.first ?? ""
        return Signal(
            kind: .testFailure, source: "pytest",
            message: "\(tests.count) failing test\(tests.count == 1 ? "" : "s"): \(head)",
            locations: inner, failingTests: tests, exceptionType: first?.exceptionType,
            topFrames: inner.prefix(3).map { "\(PythonTraceback.baseName($0.file)):\($0.function ?? "")" })
    }
}
