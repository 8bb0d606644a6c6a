import Foundation
import Support
import Testing

@testable import Sandbox

/// OCI/Docker seccomp profiles read in Swift (OCISeccompReader): which entries apply to a
/// capability-less x86_64 payload, what they resolve to, every bad file a message naming it, and
/// what the program libseccomp compiles from them answers (SeccompBPF).
@Suite struct OCISeccompReaderTests {
    static let source = "/etc/sentinel/policies/test.json"

    /// The profile `json` describes on a 5.15 kernel.
    static func parse(_ json: String, kernel: String = "5.15.0-91-generic") throws -> OCISeccompProfile {
        try OCISeccompReader.parse(Array(json.utf8), source: source, kernelRelease: kernel)
    }

    /// The message parsing `json` fails with (nil when it does not).
    static func failure(_ json: String) -> String? {
        failure(bytes: Array(json.utf8))
    }

    static func failure(bytes: [UInt8]) -> String? {
        do {
            _ = try OCISeccompReader.parse(bytes, source: source, kernelRelease: "5.15.0")
            return nil
        } catch let error as SentinelError {
            #expect(error.code == .invalidInput)
            return error.message
        } catch {
            return "\(error)"
        }
    }

    /// A profile allowing by default with `entries` as its `syscalls`.
    static func allowing(_ entries: String) -> String {
        "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [\(entries)]}"
    }

    static func syscalls(_ profile: OCISeccompProfile) -> [String] { profile.rules.map(\.syscall) }

    @Test func capabilityGatedEntriesAreLeftOutAndExcludedCapsIgnored() throws {
        let profile = try Self.parse(
            """
            {"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [
              {"names": ["chmod"], "action": "SCMP_ACT_ALLOW"},
              {"names": ["syslog"], "action": "SCMP_ACT_ALLOW", "includes": {"caps": ["CAP_SYSLOG"]}},
              {"names": ["ptrace"], "action": "SCMP_ACT_ALLOW", "excludes": {"caps": ["CAP_SYS_ADMIN"]}},
              {"names": ["getpid"], "action": "SCMP_ACT_ALLOW", "includes": {"caps": []}}
            ]}
            """)
        #expect(Self.syscalls(profile) == ["chmod", "ptrace", "getpid"])
        #expect(profile.defaultAction == .errno(1), "defaultErrnoRet is EPERM when absent")
    }

    @Test func architecturesDecideWhetherAnEntryApplies() throws {
        let profile = try Self.parse(
            Self.allowing(
                """
                {"names": ["arm_only"], "action": "SCMP_ACT_ERRNO", "includes": {"arches": ["arm", "arm64"]}},
                {"names": ["amd64_too"], "action": "SCMP_ACT_ERRNO", "includes": {"arches": ["amd64", "x32"]}},
                {"names": ["scmp_name"], "action": "SCMP_ACT_ERRNO", "includes": {"arches": ["SCMP_ARCH_X86_64"]}},
                {"names": ["not_amd64"], "action": "SCMP_ACT_ERRNO", "excludes": {"arches": ["x86_64"]}},
                {"names": ["not_s390"], "action": "SCMP_ACT_ERRNO", "excludes": {"arches": ["s390x"]}},
                {"names": ["any_arch"], "action": "SCMP_ACT_ERRNO", "includes": {"arches": []}}
                """))
        #expect(Self.syscalls(profile) == ["amd64_too", "scmp_name", "not_s390", "any_arch"])
    }

    @Test func archMapAddsNoSubArchitecture() throws {
        let profile = try Self.parse(
            """
            {"defaultAction": "SCMP_ACT_ERRNO",
             "archMap": [{"architecture": "SCMP_ARCH_X86_64", "subArchitectures": ["SCMP_ARCH_X86", "SCMP_ARCH_X32"]}],
             "syscalls": [{"names": ["x32_only"], "action": "SCMP_ACT_ALLOW", "includes": {"arches": ["x32", "x86"]}}]}
            """)
        #expect(profile.rules.isEmpty)
    }

    @Test(
        "minKernel against the running kernel's release",
        arguments: [
            ("5.15.0-91-generic", "4.8", true), ("5.15.0-91-generic", "5.15", true), ("5.15.0-91-generic", "5.16", false),
            ("5.15.0-91-generic", "6", false), ("6.1.0-13-amd64", "5.16", true), ("6.1", "6.1.0", true),
            ("5.15", "not a version", true), ("unknown", "9.0", true),
        ])
    func minKernel(release: String, minKernel: String, applies: Bool) throws {
        let profile = try Self.parse(
            Self.allowing(#"{"names": ["new_call"], "action": "SCMP_ACT_ERRNO", "includes": {"minKernel": "\#(minKernel)"}}"#),
            kernel: release)
        #expect(Self.syscalls(profile) == (applies ? ["new_call"] : []))
    }

    @Test func namesAndTheLegacyName() throws {
        let profile = try Self.parse(
            Self.allowing(
                """
                {"names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_ERRNO"},
                {"name": "rmdir", "action": "SCMP_ACT_ERRNO"},
                {"names": ["unlink"], "name": "ignored", "action": "SCMP_ACT_ERRNO"},
                {"action": "SCMP_ACT_ERRNO"}
                """))
        #expect(Self.syscalls(profile) == ["mkdir", "mkdirat", "rmdir", "unlink"])
        #expect(profile.rules.map(\.entry) == [0, 0, 1, 2])
    }

    @Test func errnoRetAndDefaultErrnoRet() throws {
        let profile = try Self.parse(
            """
            {"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": 38, "syscalls": [
              {"names": ["mkdir"], "action": "SCMP_ACT_ERRNO", "errnoRet": 71},
              {"names": ["rmdir"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1},
              {"names": ["same_as_default"], "action": "SCMP_ACT_ERRNO"},
              {"names": ["ptrace"], "action": "SCMP_ACT_TRACE", "errnoRet": 7},
              {"names": ["read"], "action": "SCMP_ACT_ALLOW"}
            ]}
            """)
        #expect(profile.defaultAction == .errno(38))
        #expect(profile.rules.map(\.syscall) == ["mkdir", "rmdir", "ptrace", "read"], "a rule repeating the default is dropped")
        #expect(profile.rules.map(\.action) == [.errno(71), .errno(1), .trace(7), .allow])
    }

    @Test func everyActionName() throws {
        let names = [
            "SCMP_ACT_ALLOW", "SCMP_ACT_ERRNO", "SCMP_ACT_KILL", "SCMP_ACT_KILL_PROCESS", "SCMP_ACT_KILL_THREAD",
            "SCMP_ACT_TRAP", "SCMP_ACT_TRACE", "SCMP_ACT_LOG",
        ]
        let entries = names.map { #"{"names": ["getpid"], "action": "\#($0)", "errnoRet": 5}"# }
        let profile = try Self.parse(
            "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [\(entries.joined(separator: ","))]}")
        #expect(
            profile.rules.map(\.action) == [.allow, .errno(5), .killProcess, .killProcess, .killThread, .trap, .trace(5), .log])
    }

    @Test func argumentComparisons() throws {
        let profile = try Self.parse(
            Self.allowing(
                """
                {"names": ["personality"], "action": "SCMP_ACT_ERRNO", "args": [
                  {"index": 0, "value": 18446744073709551615, "op": "SCMP_CMP_EQ"},
                  {"index": 1, "value": -1, "valueTwo": 0, "op": "SCMP_CMP_NE"},
                  {"index": 5, "value": 2080505856, "valueTwo": 2080505856, "op": "SCMP_CMP_MASKED_EQ"},
                  {"value": 3, "op": "SCMP_CMP_LT"}
                ]}
                """))
        let rule = try #require(profile.rules.first)
        #expect(
            rule.comparisons == [
                .init(index: 0, op: .equal, value: .max, valueTwo: 0),
                .init(index: 1, op: .notEqual, value: .max, valueTwo: 0),
                .init(index: 5, op: .maskedEqual, value: 2_080_505_856, valueTwo: 2_080_505_856),
                .init(index: 0, op: .less, value: 3, valueTwo: 0),
            ])
    }

    /// Entries that do not apply are not checked further, as the C loader did: a profile written
    /// for another architecture's actions still loads here.
    @Test func anEntryThatDoesNotApplyIsNotChecked() throws {
        let profile = try Self.parse(
            Self.allowing(
                #"{"names": ["x"], "action": "SCMP_ACT_NOTIFY", "includes": {"caps": ["CAP_SYS_ADMIN"]}}"#))
        #expect(profile.rules.isEmpty)
    }

    @Test(
        "a bad profile is an error naming the file and the problem",
        arguments: [
            (#"{"defaultAction": "SCMP_ACT_MAYBE"}"#, "unsupported seccomp action SCMP_ACT_MAYBE"),
            (allowing(#"{"names": ["ptrace"], "action": "SCMP_ACT_MAYBE"}"#), "unsupported seccomp action SCMP_ACT_MAYBE"),
            (#"{"syscalls": []}"#, "missing defaultAction"),
            (#"{"defaultAction": 1}"#, "missing defaultAction"),
            ("[]", "a seccomp profile must be a JSON object"),
            (#"{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": {}}"#, "syscalls must be an array"),
            (allowing("7"), "syscalls[0] must be an object"),
            (allowing(#"{"names": ["ptrace"]}"#), "syscalls[0] has no action"),
            (
                allowing(#"{"names": ["ptrace"], "action": "SCMP_ACT_ERRNO", "errnoRet": 5000}"#),
                "syscalls[0]: errnoRet 5000 is out of range (0..4095)"
            ),
            (#"{"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": -1}"#, "defaultErrnoRet -1 is out of range (0..4095)"),
            (
                allowing(#"{"names": ["ptrace"], "action": "SCMP_ACT_ERRNO", "args": [{"index": 0, "op": "SCMP_CMP_LIKE"}]}"#),
                "syscalls[0].args[0]: unknown op SCMP_CMP_LIKE"
            ),
            (
                allowing(#"{"names": ["ptrace"], "action": "SCMP_ACT_ERRNO", "args": [{"index": 0}]}"#),
                "syscalls[0].args[0]: unknown op (missing)"
            ),
            (
                allowing(#"{"names": ["ptrace"], "action": "SCMP_ACT_ERRNO", "args": [{"index": 6, "op": "SCMP_CMP_EQ"}]}"#),
                "syscalls[0].args[0]: index out of range"
            ),
            (
                allowing(#"{"names": ["ptrace"], "action": "SCMP_ACT_ERRNO", "args": [{"value": 1.5, "op": "SCMP_CMP_EQ"}]}"#),
                "syscalls[0].args[0]: value must be an integer (0 to 2^64-1, or negative)"
            ),
            (
                allowing(
                    #"{"names": ["ptrace"], "action": "SCMP_ACT_ERRNO", "args": [{"value": 18446744073709551616, "op": "SCMP_CMP_EQ"}]}"#
                ),
                "syscalls[0].args[0]: value must be an integer (0 to 2^64-1, or negative)"
            ),
            (
                allowing(
                    #"{"names": ["ptrace"], "action": "SCMP_ACT_ERRNO", "args": [\#(Array(repeating: #"{"op": "SCMP_CMP_EQ"}"#, count: 7).joined(separator: ","))]}"#
                ),
                "syscalls[0] has more than 6 args"
            ),
            (allowing(#"{"names": "ptrace", "action": "SCMP_ACT_ERRNO"}"#), "syscalls[0].names must be an array of strings"),
            (allowing(#"{"names": ["ptrace", 3], "action": "SCMP_ACT_ERRNO"}"#), "syscalls[0].names must be an array of strings"),
            (allowing(#"{"names": ["x"], "action": "SCMP_ACT_ERRNO", "includes": []}"#), "syscalls[0].includes must be an object"),
            (
                allowing(#"{"names": ["x"], "action": "SCMP_ACT_ERRNO", "includes": {"caps": "CAP_SYS_ADMIN"}}"#),
                "syscalls[0].includes.caps must be an array of strings"
            ),
            (
                allowing(#"{"names": ["x"], "action": "SCMP_ACT_ERRNO", "includes": {"minKernel": 5}}"#),
                "syscalls[0].includes.minKernel must be a string"
            ),
        ])
    func badProfile(json: String, problem: String) {
        #expect(Self.failure(json) == "\(Self.source): \(problem)")
    }

    @Test func malformedJSONNamesTheFileAndLine() {
        #expect(Self.failure("{\n\"defaultAction\": \"SCMP_ACT_ALLOW\",\n}")?.hasPrefix("\(Self.source):3: ") == true)
        #expect(Self.failure("")?.hasPrefix("\(Self.source):") == true)
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let depth = 100_000
        let json =
            "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": " + String(repeating: "[", count: depth)
            + String(repeating: "]", count: depth) + "}"
        let message = Self.failure(json)
        #expect(message?.hasPrefix(Self.source) == true && message?.contains("nested too deeply") == true, "\(message ?? "accepted")")
    }

    @Test func largeInputsAreRefused() throws {
        var big = Array(Self.allowing("").utf8)
        big.insert(contentsOf: [UInt8](repeating: 0x20, count: OCISeccompReader.sizeLimit), at: 1)
        #expect(Self.failure(bytes: big) == "\(Self.source): larger than \(OCISeccompReader.sizeLimit) bytes")

        let directory = TemporaryDirectory()
        #expect(FileManager.default.createFile(atPath: directory.path + "/big.json", contents: Data(big)))
        #expect(throws: SentinelError.self) { try OCISeccompReader.read(path: directory.path + "/big.json") }
        do {
            _ = try OCISeccompReader.read(path: directory.path + "/big.json")
        } catch let error as SentinelError {
            #expect(error.message.hasPrefix(directory.path + "/big.json: "), "\(error.message)")
        }

        let entries = Array(repeating: #"{"names": ["getpid"], "action": "SCMP_ACT_ERRNO"}"#, count: OCISeccompReader.entryLimit + 1)
        #expect(
            Self.failure(Self.allowing(entries.joined(separator: ",")))
                == "\(Self.source): syscalls has \(OCISeccompReader.entryLimit + 1) entries, more than \(OCISeccompReader.entryLimit)")

        let names = Array(repeating: "\"getpid\"", count: OCISeccompReader.nameLimit + 1).joined(separator: ",")
        #expect(
            Self.failure(Self.allowing(#"{"names": [\#(names)], "action": "SCMP_ACT_ERRNO"}"#))
                == "\(Self.source): the syscalls entries name more than \(OCISeccompReader.nameLimit) syscalls")
    }

    @Test func aMissingFileIsAnErrorNamingIt() {
        let path = TemporaryDirectory().path + "/missing.json"
        do {
            _ = try SeccompProgram.oci(path: path)
            Issue.record("a missing profile loaded")
        } catch let error as SentinelError {
            #expect(error.code == .invalidInput)
            #expect(error.message.hasPrefix(path + ": "), "\(error.message)")
        } catch {
            Issue.record("\(error)")
        }
    }

    /// What the compiled program answers: rules resolved in Swift reach libseccomp intact.
    @Test func theCompiledProgramAnswersAsTheProfileSays() throws {
        let profile = try Self.parse(
            """
            {"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
              {"names": ["mkdir", "no_such_syscall_here"], "action": "SCMP_ACT_ERRNO", "errnoRet": 71},
              {"name": "getpid", "action": "SCMP_ACT_KILL_PROCESS"},
              {"names": ["personality"], "action": "SCMP_ACT_ERRNO", "errnoRet": 22,
               "args": [{"index": 0, "value": 4294967295, "op": "SCMP_CMP_EQ"}]},
              {"names": ["clone"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1,
               "args": [{"index": 0, "value": 2080505856, "valueTwo": 0, "op": "SCMP_CMP_MASKED_EQ"}]},
              {"names": ["syslog"], "action": "SCMP_ACT_ERRNO", "includes": {"caps": ["CAP_SYSLOG"]}}
            ]}
            """)
        let bpf = SeccompBPF(try SeccompProgram.compile(profile, source: Self.source))
        #expect(try bpf.run(SyscallCall(83)) == .errno(71))  // mkdir
        #expect(try bpf.run(SyscallCall(39)) == .killProcess)  // getpid
        #expect(try bpf.run(SyscallCall(135, 0xFFFF_FFFF)) == .errno(22))  // personality(0xffffffff)
        #expect(try bpf.run(SyscallCall(135, 0)) == .allow)
        #expect(try bpf.run(SyscallCall(56, 0x11)) == .errno(1), "clone without namespace flags")
        #expect(try bpf.run(SyscallCall(56, 0x1000_0011)) == .allow, "clone with CLONE_NEWUSER")
        #expect(try bpf.run(SyscallCall(103)) == .allow, "syslog's rule needs a capability")  // syslog
        #expect(try bpf.run(SyscallCall(0)) == .allow)  // read
        #expect(try bpf.run(SyscallCall(20, arch: SyscallCall.auditArchI386)) == .killProcess, "foreign ABI")
    }

    @Test func theCompiledDefaultActionCarriesDefaultErrnoRet() throws {
        let profile = try Self.parse(
            #"{"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": 38, "syscalls": [{"names": ["read"], "action": "SCMP_ACT_ALLOW"}]}"#)
        let bpf = SeccompBPF(try SeccompProgram.compile(profile, source: Self.source))
        #expect(try bpf.run(SyscallCall(0)) == .allow)
        #expect(try bpf.run(SyscallCall(83)) == .errno(38))
    }

    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: Paths.corpora + "/seccomp/docker-default.json"),
            "needs ../shared/corpora/seccomp"))
    func dockersDefaultProfile() throws {
        let path = Paths.corpora + "/seccomp/docker-default.json"
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let old = try OCISeccompReader.parse(bytes, source: path, kernelRelease: "4.4.0")
        let new = try OCISeccompReader.parse(bytes, source: path, kernelRelease: "6.1.0")
        #expect(old.defaultAction == .errno(1))
        #expect(!Set(old.rules.map(\.syscall)).contains("syslog"), "CAP_SYSLOG's rule is left out")
        #expect(Set(new.rules.map(\.syscall)).contains("arch_prctl"), "amd64's own entry applies")
        #expect(Set(new.rules.map(\.syscall)).isSuperset(of: old.rules.map(\.syscall)))
        #expect(new.rules.count > old.rules.count, "a minKernel entry applies on 6.1 only")
        let bpf = SeccompBPF(try SeccompProgram.oci(path: path))
        #expect(try bpf.run(SyscallCall(0)) == .allow)  // read
        #expect(try bpf.run(SyscallCall(169)) == .errno(1))  // reboot needs CAP_SYS_BOOT
    }
}
