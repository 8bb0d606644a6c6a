import Foundation
import Testing

@testable import SCA

#if canImport(Glibc)
    import Glibc
#endif

/// 20,000-entry files parse completely and correctly. Their speed is never asserted here (a loaded
/// CI machine would turn it red): `bench/speed-bounds.sh` runs this suite with `SENTINEL_BENCH=1`,
/// reads the `BENCH` lines and compares them with the target and with Python's parsers.
@Suite struct LockfilePerformanceTests {
    static let count = 20_000
    static let benchmarking = ProcessInfo.processInfo.environment["SENTINEL_BENCH"] == "1"

    /// Hands the generated input to the bench script's peer (`$SENTINEL_BENCH_DIR/NAME`).
    static func share(_ bytes: [UInt8], as name: String) {
        guard benchmarking, let directory = ProcessInfo.processInfo.environment["SENTINEL_BENCH_DIR"] else { return }
        FileManager.default.createFile(atPath: directory + "/" + name, contents: Data(bytes))
    }

    static func report(_ name: String, _ bytes: [UInt8], _ cpu: Duration, _ wall: Duration) {
        func ms(_ d: Duration) -> String {
            String(format: "%.1f", Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15)
        }
        print("BENCH lockfile \(name) entries=\(count) bytes=\(bytes.count) cpu_ms=\(ms(cpu)) wall_ms=\(ms(wall))")
    }

    /// A v3 package-lock shaped like a real tree: package i requires 2i+1 and 2i+2 (depth ~15),
    /// and every tenth one sits nested under its parent (so resolution walks upwards).
    static func packageLock() -> [UInt8] {
        var text = "{\n  \"name\": \"big\",\n  \"lockfileVersion\": 3,\n  \"requires\": true,\n  \"packages\": {\n"
        text +=
            "    \"\": {\n      \"name\": \"big\",\n      \"dependencies\": {\n        \"pkg-0\": \"^1.0.0\"\n      }\n    }"
        for i in 0..<count {
            let key = i % 10 == 9 ? "node_modules/pkg-\(i - 1)/node_modules/pkg-\(i)" : "node_modules/pkg-\(i)"
            text += ",\n    \"\(key)\": {\n      \"version\": \"1.\(i % 50).\(i % 7)\",\n"
            text += "      \"resolved\": \"https://registry.npmjs.org/pkg-\(i)/-/pkg-\(i)-1.0.0.tgz\",\n"
            text += "      \"integrity\": \"sha512-\(String(repeating: "A", count: 86))==\",\n"
            text +=
                "      \"dependencies\": {\n        \"pkg-\(2 * i + 1)\": \"^1.0.0\",\n        \"pkg-\(2 * i + 2)\": \"^1.0.0\"\n      }\n    }"
        }
        text += "\n  }\n}\n"
        return Array(text.utf8)
    }

    static func requirements() -> [UInt8] {
        var text = "# generated\n"
        for i in 0..<count {
            text += "package-\(i)[extra]==\(i % 9).\(i % 31).\(i % 5) ; python_version >= \"3.8\" \\\n"
            text += "    --hash=sha256:\(String(repeating: "0123456789abcdef", count: 4))\n"
        }
        return Array(text.utf8)
    }

    /// CPU time of the calling thread: the machine is shared and other tests run in parallel,
    /// so wall time measures the neighbours as much as the parser.
    static func threadCPUTime() -> Duration {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
    }

    /// One run, or the best of three when benchmarking: (result, CPU time, wall time).
    static func measure(_ body: () throws -> LockfileResult) rethrows -> (LockfileResult, Duration, Duration) {
        var result: LockfileResult?
        var best = Duration.seconds(3600)
        var wall = Duration.seconds(3600)
        let clock = ContinuousClock()
        for _ in 0..<(benchmarking ? 3 : 1) {
            let cpuStart = threadCPUTime()
            let wallTime = try clock.measure { result = try body() }
            best = min(best, threadCPUTime() - cpuStart)
            wall = min(wall, wallTime)
        }
        return (result ?? LockfileResult(file: "", format: ""), best, wall)
    }

    @Test func packageLockOf20000Entries() throws {
        let bytes = Self.packageLock()
        Self.share(bytes, as: "package-lock.json")
        let (result, cpu, wall) = try Self.measure { try PackageLockParser().parse(bytes, file: "package-lock.json") }
        Self.report("package-lock.json", bytes, cpu, wall)
        #expect(result.dependencies.count == Self.count)
        #expect(result.dependencies[0].isDirect)
        #expect(result.dependencies[3].path == ["pkg-0", "pkg-1", "pkg-3"])
        // pkg-9 is nested under pkg-8 but required by pkg-4: resolution from pkg-4 reaches the
        // hoisted copy only, so the nested one is reached from nothing.
        #expect(result.dependencies[9].path == [])
        #expect(result.dependencies[10].path == ["pkg-0", "pkg-1", "pkg-4", "pkg-10"])
    }

    @Test func requirementsOf20000Lines() throws {
        let bytes = Self.requirements()
        Self.share(bytes, as: "requirements.txt")
        let (result, cpu, wall) = try Self.measure {
            try RequirementsParser(loader: { _ in [] }).parse(bytes, file: "requirements.txt")
        }
        Self.report("requirements.txt", bytes, cpu, wall)
        #expect(result.dependencies.count == Self.count)
        #expect(result.dependencies.last?.line == 2 * Self.count)
        #expect(result.dependencies.last?.notes["markers"] == "python_version >= \"3.8\"")
    }

    /// A Cargo.lock of 20,000 `[[package]]` tables: the TOML reader once appended to arrays of
    /// tables by copying them (quadratic, 3.4 s here); bench/speed-bounds.sh watches the time.
    static func cargoLock() -> [UInt8] {
        var text = "version = 3\n\n[[package]]\nname = \"root\"\nversion = \"0.1.0\"\ndependencies = [\n \"c0\",\n]\n"
        for i in 0..<count {
            text += "\n[[package]]\nname = \"c\(i)\"\nversion = \"1.\(i % 40).0\"\n"
            text += "source = \"registry+https://github.com/rust-lang/crates.io-index\"\n"
            text += "checksum = \"\(String(repeating: "ab", count: 32))\"\n"
            text += "dependencies = [\n \"c\(2 * i + 1)\",\n \"c\(2 * i + 2)\",\n]\n"
        }
        return Array(text.utf8)
    }

    @Test func cargoLockOf20000Packages() throws {
        let bytes = Self.cargoLock()
        Self.share(bytes, as: "Cargo.lock")
        let (result, cpu, wall) = try Self.measure { try CargoLockParser().parse(bytes, file: "Cargo.lock") }
        Self.report("Cargo.lock", bytes, cpu, wall)
        #expect(result.dependencies.count == Self.count)
        #expect(result.dependencies[4].path == ["c0", "c1", "c4"])
        #expect(Set(result.dependencies.map(\.name)).count == Self.count)
    }
}
