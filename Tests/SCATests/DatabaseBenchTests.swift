import Foundation
import Testing
import SCA
import TestSupport

/// Benchmarks driven by `bench/sca-import.sh` and `bench/sca-lookup.sh` (SENTINEL_BENCH=1); they
/// print `BENCH` lines and still assert that the work was done.
@Suite(
    "Database benchmarks", .serialized,
    .enabled(
        if: ProcessInfo.processInfo.environment["SENTINEL_BENCH"] == "1" && Fixtures.exists(Fixtures.pypa),
        "benchmarks run only from bench/ scripts (SENTINEL_BENCH=1) with the corpora"))
struct DatabaseBenchTests {
    static func fileSize(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.int64Value ?? 0
    }

    @Test("import time and size per corpus")
    func importTimes() throws {
        for (label, corpus) in [("pypa", Fixtures.pypa), ("rustsec", Fixtures.rustsec), ("golang", Fixtures.golang)] {
            let dir = try TemporaryDirectory.url("bench-\(label)")
            defer { try? FileManager.default.removeItem(at: dir) }
            let path = dir.appendingPathComponent("osv.sqlite").path
            let start = Date()
            let report = try OSVDatabase(path: path).import(paths: [corpus])
            let seconds = Date().timeIntervalSince(start)
            let again = Date()
            let second = try OSVDatabase(path: path).import(paths: [corpus])
            let reimport = Date().timeIntervalSince(again)
            print(
                String(
                    format: "BENCH import %@ records=%d problems=%d seconds=%.2f reimport_seconds=%.2f bytes=%lld",
                    label, report.inserted, report.problems.count, seconds, reimport, Self.fileSize(path)))
            #expect(report.inserted > 1000 && second.inserted == 0)
        }
    }

    /// A 1,000-dependency requirements set: every PyPI package of the corpus pinned to a version its
    /// first advisory names (so many match), padded with packages the database does not know.
    static func requirements() throws -> [Dependency] {
        var deps = [Dependency]()
        let packages = try FileManager.default.contentsOfDirectory(atPath: Fixtures.pypa).sorted()
        for package in packages where deps.count < 1000 {
            let dir = (Fixtures.pypa as NSString).appendingPathComponent(package)
            guard let first = try? FileManager.default.contentsOfDirectory(atPath: dir).sorted().first(where: { $0.hasSuffix(".yaml") }),
                let text = try? String(contentsOfFile: (dir as NSString).appendingPathComponent(first), encoding: .utf8),
                let record = try? OSVDecoder.decodeYAML(text, source: first),
                let entry = record.affected.first
            else { continue }
            let version = entry.versions.first ?? entry.ranges.first?.events.first { $0.version != "0" }?.version ?? "1.0"
            deps.append(
                Dependency(
                    ecosystem: .pypi, name: entry.name, version: version, file: "requirements.txt",
                    line: deps.count + 1))
        }
        while deps.count < 1000 {
            deps.append(
                Dependency(
                    ecosystem: .pypi, name: "unknown-package-\(deps.count)", version: "1.0",
                    file: "requirements.txt", line: deps.count + 1))
        }
        return deps
    }

    @Test("lookup of 1,000 dependencies, cold and warm")
    func lookups() throws {
        let dir = try TemporaryDirectory.url("bench-lookup")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("osv.sqlite").path
        _ = try OSVDatabase(path: path).import(paths: [Fixtures.pypa])
        let deps = try Self.requirements()
        #expect(deps.count == 1000)
        let coldStart = Date()
        let db = try OSVDatabase(path: path)
        let cold = try db.lookup(deps)
        let coldSeconds = Date().timeIntervalSince(coldStart)
        var warmSeconds = [Double]()
        for _ in 0..<5 {
            let start = Date()
            let warm = try db.lookup(deps)
            warmSeconds.append(Date().timeIntervalSince(start))
            #expect(warm == cold)
        }
        let matched = cold.filter { !$0.isEmpty }.count
        let findings = cold.map(\.count).reduce(0, +)
        print(
            String(
                format: "BENCH lookup dependencies=%d vulnerable=%d matches=%d cold_ms=%.1f warm_ms_min=%.1f warm_ms_median=%.1f",
                deps.count, matched, findings, coldSeconds * 1000, (warmSeconds.min() ?? 0) * 1000,
                warmSeconds.sorted()[warmSeconds.count / 2] * 1000))
        #expect(matched > 300)
    }
}
