import Foundation
import PythonSyntax
import Testing

@testable import SAST

#if canImport(Glibc)
    import Glibc
#endif

/// CPU seconds (user + system) used by this process so far: on a shared machine, wall time
/// measures the neighbours too.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
}

/// Throughput on a real tree (`SENTINEL_BENCH_TREE=/path swift test -c release --filter
/// EngineThroughputTests`); prints files, lines and seconds. Skipped unless the variable is set.
@Suite("Engine throughput")
struct EngineThroughputTests {
    static let tree = ProcessInfo.processInfo.environment["SENTINEL_BENCH_TREE"]

    @Test("scan a large tree with every rule", .enabled(if: tree != nil))
    func throughput() throws {
        let root = try #require(Self.tree)
        let rulesDir = ProcessInfo.processInfo.environment["SENTINEL_RULES_DIR"] ?? RuleFilesTests.rulesDirectory
        let rules = try RuleSet.load(directories: [rulesDir])
        let engine = SASTEngine(rules: rules)
        var files: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".py") { files.append(path) }
        }
        let parseStart = Date()
        let parseCPU = cpuSeconds()
        for path in files {
            guard let data = FileManager.default.contents(atPath: root + "/" + path) else { continue }
            _ = try? PythonParser.parseModule(bytes: Array(data), fileName: path)
        }
        print(
            "parse only: \(String(format: "%.2f", Date().timeIntervalSince(parseStart))) s, "
                + "\(String(format: "%.2f", cpuSeconds() - parseCPU)) s CPU")
        let emptyStart = Date()
        let empty = SASTEngine(rules: try RuleSet(rules: []))
        for path in files {
            guard let data = FileManager.default.contents(atPath: root + "/" + path) else { continue }
            _ = empty.scan(file: path, source: String(decoding: data, as: UTF8.self))
        }
        print("parse + index, no rules: \(String(format: "%.2f", Date().timeIntervalSince(emptyStart))) s")
        let start = Date()
        let startCPU = cpuSeconds()
        var lines = 0
        var findings = 0
        var parseErrors = 0
        for path in files {
            guard let data = FileManager.default.contents(atPath: root + "/" + path) else { continue }
            let source = String(decoding: data, as: UTF8.self)
            let result = engine.scan(file: path, source: source)
            findings += result.findings.count
            for f in result.findings where findings <= 20 {
                print("finding: \(f.location.displayString): \(f.ruleId): \(f.evidence ?? f.message)")
            }
            if result.parseError != nil { parseErrors += 1 }
        }
        let seconds = Date().timeIntervalSince(start)
        let cpu = cpuSeconds() - startCPU
        for path in files {
            lines += FileManager.default.contents(atPath: root + "/" + path)?.reduce(0) { $1 == 10 ? $0 + 1 : $0 } ?? 0
        }
        print(
            "throughput: \(files.count) files, \(lines) lines, \(rules.rules.count) rules, \(findings) findings, "
                + "\(parseErrors) parse errors in \(String(format: "%.2f", seconds)) s, \(String(format: "%.2f", cpu)) s CPU "
                + "(\(Int(Double(lines) / max(seconds, 0.001))) lines/s)")
        #expect(!files.isEmpty)
    }

    /// Prints `finding<TAB>file<TAB>line<TAB>rule` for every finding under SENTINEL_SCAN_DIR, for
    /// scoring against labelled corpora (bench scripts read these lines).
    @Test("dump findings of a directory", .enabled(if: ProcessInfo.processInfo.environment["SENTINEL_SCAN_DIR"] != nil))
    func dump() throws {
        let root = try #require(ProcessInfo.processInfo.environment["SENTINEL_SCAN_DIR"])
        let rulesDir = ProcessInfo.processInfo.environment["SENTINEL_RULES_DIR"] ?? RuleFilesTests.rulesDirectory
        let engine = SASTEngine(rules: try RuleSet.load(directories: [rulesDir]))
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".py"), let data = FileManager.default.contents(atPath: root + "/" + path) else { continue }
            let result = engine.scan(file: path, source: String(decoding: data, as: UTF8.self))
            for f in result.findings {
                // The source line, when the evidence names one ("... at line N flows to ...").
                let sourceLine =
                    f.evidence.flatMap { $0.components(separatedBy: " at line ").dropFirst().first }
                    .flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
                print("finding\t\(path)\t\(f.location.startLine ?? 0)\t\(f.ruleId)\t\(sourceLine)")
            }
        }
    }

    @Test("very long operator chains and deep nesting do not exhaust the stack")
    func deepTrees() throws {
        let chain =
            "import os\nfrom flask import request\nx = request.args['a']" + String(repeating: " + x", count: 2900) + "\nos.system(x)\n"
        let taint = try engine(rule: TaintEngineTests.rule)
        let result = taint.scan(file: "deep.py", source: chain)
        #expect(result.parseError == nil)
        #expect(result.findings.count == 1)
        let search = try engine(rule: patternRule("$V = $A + $B"))
        #expect(search.scan(file: "deep.py", source: chain).findings.count == 1)
    }
}
