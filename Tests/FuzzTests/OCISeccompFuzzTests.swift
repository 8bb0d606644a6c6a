import Support
import Testing

@testable import Sandbox

/// The OCI seccomp profile reader on mutants (deep nesting, huge numbers, wrong types, cut
/// files): a profile or a `SentinelError`, never a trap; a profile it accepts compiles or is
/// refused by libseccomp with a `SentinelError` too.
@Suite struct OCISeccompFuzzTests {
    static let dictionary = [
        "{", "}", "[", "]", ",", ":", "\"", "null", "true", "-1", "18446744073709551616", "1e400", "4096",
        "\"defaultAction\":", "\"defaultErrnoRet\":", "\"syscalls\":", "\"names\":", "\"name\":", "\"action\":",
        "\"errnoRet\":", "\"args\":", "\"index\":", "\"value\":", "\"valueTwo\":", "\"op\":", "\"includes\":",
        "\"excludes\":", "\"caps\":", "\"arches\":", "\"minKernel\":", "\"SCMP_ACT_ERRNO\"", "\"SCMP_ACT_ALLOW\"",
        "\"SCMP_ACT_KILL\"", "\"SCMP_ACT_TRACE\"", "\"SCMP_CMP_MASKED_EQ\"", "\"SCMP_CMP_EQ\"", "\"amd64\"",
        "\"arm64\"", "\"CAP_SYS_ADMIN\"", "\"4.8\"", "\"ptrace\"", "\"\\u0000\"",
    ]

    static let seeds: [[UInt8]] = [
        #"{"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": 1, "syscalls": [{"names": ["read", "write"], "action": "SCMP_ACT_ALLOW"}]}"#,
        #"{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"name": "clone", "action": "SCMP_ACT_ERRNO", "errnoRet": 38, "args": [{"index": 0, "value": 2114060288, "valueTwo": 0, "op": "SCMP_CMP_MASKED_EQ"}]}]}"#,
        #"{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"names": ["ptrace"], "action": "SCMP_ACT_ALLOW", "includes": {"minKernel": "4.8", "arches": ["amd64"]}, "excludes": {"caps": ["CAP_SYS_PTRACE"]}}, {"names": ["syslog"], "action": "SCMP_ACT_ALLOW", "includes": {"caps": ["CAP_SYSLOG"]}}]}"#,
    ].map { Array($0.utf8) }

    @Test func mutatedProfiles() {
        let problems = fuzz(seeds: Self.seeds, dictionary: Self.dictionary, seed: 57, iterations: 500) { bytes in
            contractBroken(typed: { $0 is SentinelError }) {
                let profile = try OCISeccompReader.parse(bytes, source: "fuzz.json", kernelRelease: "6.1.0")
                _ = try SeccompProgram.compile(profile, source: "fuzz.json")
            }
        }
        #expect(problems.isEmpty, "\(problems)")
    }
}
