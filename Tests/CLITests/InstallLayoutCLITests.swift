import Foundation
import Support
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// An installed tree (`bin/sentinel`, `libexec/sentinel/sentinel-cli`, `share/sentinel/{rules,profiles}`)
/// moved away from the prefix
/// it was installed for still finds its data beside itself. The debug binary stands in for the
/// release one (same lookup code); `scripts/check-install.sh` runs the real `make install`.
@Suite struct InstallLayoutCLITests {
    /// A prefix outside any checkout: `bin/sentinel` and `libexec/sentinel/sentinel-cli` (copies of
    /// the built binaries), one profile
    /// and one rule, each only there, so that output naming them proves where they came from.
    static func fakePrefix() throws -> String {
        let prefix = NSTemporaryDirectory() + "sentinel-prefix-\(UUID().uuidString)"
        let fm = FileManager.default
        try fm.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: prefix + "/share/sentinel/profiles", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: prefix + "/share/sentinel/rules/python", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: prefix + "/libexec/sentinel", withIntermediateDirectories: true)
        try fm.copyItem(atPath: CLI.binary, toPath: prefix + "/bin/sentinel")
        try fm.copyItem(atPath: CLI.fullBinary, toPath: prefix + "/libexec/sentinel/sentinel-cli")
        let profile = """
            name: relocated-only
            description: A profile that exists only in the moved prefix
            filesystem:
              workspace: ro
            network: none
            """
        try profile.write(toFile: prefix + "/share/sentinel/profiles/minimal.yaml", atomically: true, encoding: .utf8)
        let rule = """
            id: relocated-only-rule
            message: a rule that exists only in the moved prefix
            severity: low
            confidence: high
            languages: [python]
            cwe: [20]
            pattern: relocated_only_call(...)
            """
        try rule.write(
            toFile: prefix + "/share/sentinel/rules/python/relocated-only-rule.yaml", atomically: true,
            encoding: .utf8)
        return prefix
    }

    /// The environment without the variables that would name the data directories directly.
    static var plainEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.filter { $0.key != "SENTINEL_PROFILES" && $0.key != "SENTINEL_RULES" }
    }

    static func run(_ binary: String, _ arguments: [String]) throws -> CLI.Result {
        try CLI.runProgram(binary, arguments, environment: plainEnvironment, directory: "/")
    }

    @Test func aMovedPrefixFindsItsProfilesAndRules() throws {
        let original = try Self.fakePrefix()
        let moved = NSTemporaryDirectory() + "sentinel-moved-\(UUID().uuidString)"
        try FileManager.default.moveItem(atPath: original, toPath: moved)
        defer { try? FileManager.default.removeItem(atPath: moved) }

        // `sandbox profiles` and `rules list` run in sentinel-cli, `sandbox run` in sentinel itself.
        let profiles = try Self.run(moved + "/bin/sentinel", ["sandbox", "profiles"])
        #expect(profiles.status == 0, "\(profiles.stderr)")
        let rows = profiles.stdout.split(separator: "\n").map(String.init)
        #expect(rows.first?.hasPrefix("NAME") == true)
        #expect(rows.contains { $0.hasPrefix("relocated-only ") }, "\(profiles.stdout)")

        let rules = try Self.run(moved + "/bin/sentinel", ["rules", "list"])
        #expect(rules.status == 0, "\(rules.stderr)")
        let lines = rules.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(rules.stdout)")
        #expect(lines.first?.hasPrefix("relocated-only-rule ") == true)
        #expect(lines.last == "1 rules")

        let run = try Self.run(moved + "/bin/sentinel", ["sandbox", "run", "--", "/bin/true"])
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// Without `sentinel-cli` beside it, `sentinel` still runs `--version`, and `sandbox run` with
    /// a profile it reads without YAML (JSON here); a YAML profile, which only `sentinel-cli` reads
    /// (and caches for the launcher), and every other command fail with one line naming where the
    /// full command line was looked for.
    @Test func withoutTheFullCommandLineOnlyTheLeanCommandsRun() throws {
        let prefix = try Self.fakePrefix()
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        try FileManager.default.removeItem(atPath: prefix + "/libexec/sentinel/sentinel-cli")
        let binary = prefix + "/bin/sentinel"
        let notFound =
            "sentinel: \(prefix)/bin/sentinel-cli: not found (nor \(prefix)/libexec/sentinel/sentinel-cli): every command but `sandbox run` and `--version` runs in it\n"

        let version = try Self.run(binary, ["--version"])
        #expect(version.status == 0 && !version.stdout.isEmpty, "\(version.stderr)")
        let json = prefix + "/custom.json"
        try Data(#"{"name": "custom"}"#.utf8).write(to: URL(fileURLWithPath: json))
        let run = try Self.run(binary, ["sandbox", "run", "--profile", json, "--", "/bin/sh", "-c", "echo inside"])
        #expect(run.status == 0 && run.stdout == "inside\n", "\(run.stderr)")
        let yaml = try Self.run(binary, ["sandbox", "run", "--", "/bin/sh", "-c", "echo inside"])
        #expect(yaml.status == 1 && yaml.stdout.isEmpty && yaml.stderr == notFound, "\(yaml.stderr)")
        let rules = try Self.run(binary, ["rules", "list"])
        #expect(rules.status == 1)
        #expect(rules.stderr == notFound, "\(rules.stderr)")
        // A `sandbox run` the lean parser leaves to sentinel-cli (help) fails the same way.
        let help = try Self.run(binary, ["sandbox", "run", "--help"])
        #expect(help.status == 1 && help.stderr.contains("sentinel-cli: not found"), "\(help.stderr)")
    }

    /// A script standing in for a planted `sentinel-cli`: it leaves `marker` behind if it ever runs.
    static func plant(_ path: String, marker: String) throws {
        try FileManager.default.createDirectory(atPath: PathText.directory(of: path), withIntermediateDirectories: true)
        try "#!/bin/sh\necho planted-ran > '\(marker)'\necho planted-ran\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chmod(path, 0o755) == 0)
    }

    /// Red-team R1: root runs a copy of `sentinel` and `sentinel-cli` from a directory inside a tree
    /// another user owns (under /tmp). Her `../libexec/sentinel/sentinel-cli` used to run as root;
    /// now nothing of that tree is executed: the full command line is refused, in one line naming
    /// it and why, with status 2.
    @Test func aCopyInATreeAnotherUserOwnsRunsNothingOfHers() throws {
        let top = NSTemporaryDirectory() + "sentinel-theirs-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: top) }
        let theirs = top + "/theirs"
        try FileManager.default.createDirectory(atPath: theirs + "/bin", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.binary, toPath: theirs + "/bin/sentinel")
        try FileManager.default.copyItem(atPath: CLI.fullBinary, toPath: theirs + "/bin/sentinel-cli")
        let marker = top + "/marker"
        try Self.plant(theirs + "/libexec/sentinel/sentinel-cli", marker: marker)
        #expect(chown(theirs + "/libexec/sentinel/sentinel-cli", 65534, 65534) == 0)
        #expect(chown(theirs + "/libexec/sentinel", 65534, 65534) == 0)
        #expect(chown(theirs + "/libexec", 65534, 65534) == 0)
        #expect(chown(theirs, 65534, 65534) == 0)

        let result = try Self.run(theirs + "/bin/sentinel", ["rules", "list"])
        #expect(!FileManager.default.fileExists(atPath: marker), "her sentinel-cli ran: \(result.stdout)")
        #expect(result.status == 2 && result.stdout.isEmpty, "\(result.status) \(result.stdout)")
        #expect(
            result.stderr
                == "sentinel: \(theirs)/bin/sentinel-cli: not run: \(theirs) is owned by uid 65534, not by root or uid \(geteuid()); it and every directory above it must belong to root or uid \(geteuid()) and be writable by no one else\n",
            "\(result.stderr)")
    }

    /// The full command line beside the running `sentinel` comes first; `../libexec/sentinel/` only
    /// serves an installed tree without one there (`make install`).
    @Test func theSiblingFullCommandLineComesFirst() throws {
        let prefix = try Self.fakePrefix()
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        try FileManager.default.copyItem(atPath: CLI.fullBinary, toPath: prefix + "/bin/sentinel-cli")
        try FileManager.default.removeItem(atPath: prefix + "/libexec/sentinel/sentinel-cli")
        let marker = prefix + "/marker"
        try Self.plant(prefix + "/libexec/sentinel/sentinel-cli", marker: marker)
        let rules = try Self.run(prefix + "/bin/sentinel", ["rules", "list"])
        #expect(rules.status == 0 && rules.stdout.split(separator: "\n").last == "1 rules", "\(rules.stdout)\(rules.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    /// Through a symlink (`/usr/local/bin/sentinel -> /opt/sentinel/bin/sentinel`, as package
    /// managers install), the data beside the real binary is used.
    @Test func aSymlinkToTheBinaryUsesTheDataBesideTheTarget() throws {
        let prefix = try Self.fakePrefix()
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        let links = NSTemporaryDirectory() + "sentinel-links-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: links, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: links) }
        try FileManager.default.createSymbolicLink(atPath: links + "/sentinel", withDestinationPath: prefix + "/bin/sentinel")

        let rules = try Self.run(links + "/sentinel", ["rules", "list"])
        #expect(rules.status == 0, "\(rules.stderr)")
        #expect(rules.stdout.split(separator: "\n").last == "1 rules", "\(rules.stdout)")
    }
}
