import Foundation
import Support
import ScanCore
import Testing

@testable import Sandbox

@Suite struct ProfileLoaderTests {
    @Test(arguments: ["minimal", "scan-bandit", "scan-semgrep", "scan-wapiti", "fix-verify", "dast", "app"])
    func shippedProfilesLoad(name: String) throws {
        let profile = try ProfileLoader.load(path: "\(Paths.profiles)/\(name).yaml", syntax: .yaml)
        #expect(profile.name == name)
        #expect(!profile.description.isEmpty)
        #expect(profile.filesystem.readOnly.contains("/usr"))
        #expect(profile.filesystem.hidden.contains("/etc/shadow"))
        #expect(profile.seccomp == .default)
        #expect(profile.limits.memoryBytes != nil && profile.limits.pids != nil && profile.limits.timeoutSeconds != nil)
        #expect(profile.environment.set["PATH"] != nil)
        let text = try String(contentsOfFile: "\(Paths.profiles)/\(name).yaml", encoding: .utf8)
        #expect(text.contains("\n  workspaceSize: 256M\n"), "the shipped profile states its workspace size")
    }

    @Test func shippedProfilesHaveTheIssuedShape() throws {
        let minimal = try ProfileLoader.load(path: "\(Paths.profiles)/minimal.yaml", syntax: .yaml)
        #expect(minimal.network.mode == .none)
        #expect(minimal.filesystem.workspace == .ro)
        #expect(minimal.limits.memoryBytes == 512 << 20)
        #expect(minimal.limits.timeoutSeconds == 300)
        #expect(minimal.filesystem.tmpfs == ["/tmp": 64 << 20])
        let fixVerify = try ProfileLoader.load(path: "\(Paths.profiles)/fix-verify.yaml", syntax: .yaml)
        #expect(fixVerify.filesystem.workspace == .overlay)
        #expect(fixVerify.network.mode == .none)
        let semgrep = try ProfileLoader.load(path: "\(Paths.profiles)/scan-semgrep.yaml", syntax: .yaml)
        #expect(semgrep.network.mode == .proxy)
        #expect(semgrep.network.allow.isEmpty)
        // Wapiti's allow-list is set per run to its target alone.
        let wapiti = try ProfileLoader.load(path: "\(Paths.profiles)/scan-wapiti.yaml", syntax: .yaml)
        #expect(wapiti.network.mode == .proxy)
        #expect(wapiti.network.allow.isEmpty)
        #expect(wapiti.filesystem.workspace == .ro)
    }

    @Test func builtInMinimalMatchesTheShippedFile() throws {
        let shipped = try ProfileLoader.load(path: "\(Paths.profiles)/minimal.yaml", syntax: .yaml)
        var builtIn = Profile.minimal
        builtIn.description = shipped.description
        #expect(shipped == builtIn)
    }

    @Test func jsonProfilesLoad() throws {
        let json = """
            {"name": "j", "network": {"mode": "proxy", "allow": ["example.com:443"]},
             "limits": {"memory": "1G", "pids": 10, "cpus": 0.5, "timeout": "90s"},
             "filesystem": {"workspace": "rw", "tmpfs": {"/tmp": "8M"}}}
            """
        let profile = try ProfileLoader.parse(json, source: "j.json", syntax: .yaml)
        #expect(profile.network == Profile.Network(mode: .proxy, allow: ["example.com:443"]))
        #expect(profile.limits.memoryBytes == 1 << 30)
        #expect(profile.limits.pids == 10)
        #expect(profile.limits.cpus == 0.5)
        #expect(profile.limits.timeoutSeconds == 90)
        #expect(profile.filesystem.workspace == .rw)
        #expect(profile.filesystem.tmpfs == ["/tmp": 8 << 20])
    }

    /// The inotify limits default to 16 instances and 8,192 watches; a profile raises them
    /// within their bound (`Profile.Limits.inotifyBounds`).
    @Test func inotifyLimitsDefaultAndAreRaisedWithinTheirBound() throws {
        let plain = try ProfileLoader.parse("name: x\nlimits: {memory: 1G}\n", source: "p.yaml", syntax: .yaml)
        #expect(plain.limits.inotifyInstances == 16 && plain.limits.inotifyWatches == 8192)
        let raised = try ProfileLoader.parse(
            "name: x\nlimits: {inotifyInstances: 64, inotifyWatches: 65536}\n",
            source: "p.yaml", syntax: .yaml)
        #expect(raised.limits.inotifyInstances == 64 && raised.limits.inotifyWatches == 65536)
        do {
            _ = try ProfileLoader.parse("name: x\nlimits: {inotifyInstances: 1000}\n", source: "p.yaml", syntax: .yaml)
            Issue.record("accepted 1000 instances")
        } catch let error as SentinelError {
            #expect(error.message == "p.yaml:2: limits.inotifyInstances: must be 1 to 64")
        }
    }

    /// Profiles that leave `workspaceSize` out get the minimal profile's 256M; the shipped
    /// profiles all say it.
    @Test func workspaceSizeIsParsedAndDefaulted() throws {
        let plain = try ProfileLoader.parse("name: x\nlimits: {memory: 1G}\n", source: "p.yaml", syntax: .yaml)
        #expect(plain.limits.workspaceSizeBytes == 256 << 20)
        let set = try ProfileLoader.parse("name: x\nlimits: {workspaceSize: 1G}\n", source: "p.yaml", syntax: .yaml)
        #expect(set.limits.workspaceSizeBytes == 1 << 30)
        #expect(throws: SentinelError.self) {
            _ = try ProfileLoader.parse("name: x\nlimits: {workspaceSize: 0}\n", source: "p.yaml", syntax: .yaml)
        }
    }

    @Test func relativeSeccompPathResolvesAgainstTheProfile() throws {
        let profile = try ProfileLoader.parse(
            "name: x\nseccomp: policies/a.json\n", source: "p.yaml",
            baseDirectory: "/etc/sentinel", syntax: .yaml)
        #expect(profile.seccomp == .oci(path: "/etc/sentinel/policies/a.json"))
    }

    @Test(arguments: [
        ("name: x\nbogus: 1\n", "unknown key 'bogus'"),
        ("name: x\nfilesystem: {readonly: [/usr]}\n", "unknown key 'filesystem.readonly'"),
        ("name: x\nlimits: {memroy: 1G}\n", "unknown key 'limits.memroy'"),
        ("name: x\nnetwork: {mode: proxy, allwo: []}\n", "unknown key 'network.allwo'"),
        ("description: no name\n", "missing key 'name'"),
        ("name: x\nlimits: {memory: lots}\n", "limits.memory: 'lots' is not a size"),
        ("name: x\nlimits: {pids: 0}\n", "limits.pids: must be above 0"),
        ("name: x\nlimits: {workspaceSize: 512K}\n", "limits.workspaceSize: must be at least 1M"),
        ("name: x\nlimits: {timeout: forever}\n", "limits.timeout: 'forever' is not a duration"),
        ("name: x\nlimits: {cpus: -1}\n", "limits.cpus: must be above 0"),
        ("name: x\nfilesystem: {workspace: writable}\n", "'writable' is not one of ro, rw, overlay"),
        ("name: x\nfilesystem: {readOnly: [usr]}\n", "filesystem.readOnly[0]: 'usr' must be an absolute path"),
        ("name: x\nfilesystem: {readOnly: [/usr/../root]}\n", "must be an absolute path without '..'"),
        ("name: x\nnetwork: sometimes\n", "network: 'sometimes' is not one of none, proxy"),
        ("name: x\nnetwork: {mode: none, allow: [a.com]}\n", "network.allow needs network.mode: proxy"),
        ("name: x\nenv: {allow: TERM}\n", "env.allow: must be a list"),
        ("name: 'a b'\n", "may hold only letters"),
        ("- just\n- a list\n", "a profile must be a mapping"),
        ("name: [unclosed\n", "not valid YAML or JSON"),
        ("name: x\nlimits: {inotifyInstances: 65}\n", "limits.inotifyInstances: must be 1 to 64"),
        ("name: x\nlimits: {inotifyWatches: 65537}\n", "limits.inotifyWatches: must be 1 to 65536"),
        ("name: x\nlimits: {inotifyWatches: 0}\n", "limits.inotifyWatches: must be above 0"),
    ])
    func rejectsBadProfilesNamingTheProblem(text: String, expected: String) {
        do {
            _ = try ProfileLoader.parse(text, source: "bad.yaml", syntax: .yaml)
            Issue.record("accepted: \(text)")
        } catch let error as SentinelError {
            #expect(error.code == .invalidInput)
            #expect(error.message.hasPrefix("bad.yaml:"))
            #expect(error.message.contains(expected), "\(error.message)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    /// Every problem names the file, the line of the offending value (or key), the key and
    /// the problem: `FILE:LINE: KEY: problem`.
    @Test(arguments: [
        ("name: x\nlimits:\n  pids: 0\n", "bad.yaml:3: limits.pids: must be above 0"),
        (
            "name: x\nfilesystem:\n  readOnly:\n    - /usr\n    - usr\n",
            "bad.yaml:5: filesystem.readOnly[1]: 'usr' must be an absolute path without '..'"
        ),
        ("name: x\n\nnetwork: {mode: proxy, allwo: []}\n", "bad.yaml:3: unknown key 'network.allwo'"),
        (
            "{\"name\": \"j\",\n \"limits\": {\"memory\": \"lots\"}}",
            "bad.yaml:2: limits.memory: 'lots' is not a size (e.g. 512M, 1G)"
        ),
        ("name: x\nenv:\n  allow: TERM\n", "bad.yaml:3: env.allow: must be a list"),
        ("name: [unclosed\n", "bad.yaml:2: not valid YAML or JSON: "),
    ])
    func errorsNameFileLineAndKey(text: String, expected: String) {
        do {
            _ = try ProfileLoader.parse(text, source: "bad.yaml", syntax: .yaml)
            Issue.record("accepted: \(text)")
        } catch let error as SentinelError {
            #expect(error.message.hasPrefix(expected), "\(error.message)")
            #expect(!error.message.contains("\n"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func storeResolvesNamesPathsAndUnknowns() throws {
        let store = ProfileStore(directories: [Paths.profiles], syntax: .yaml)
        #expect(try store.resolve("fix-verify").name == "fix-verify")
        #expect(try store.resolve(Paths.profiles + "/scan-bandit.yaml").name == "scan-bandit")
        #expect(store.list().map(\.name) == ["app", "dast", "fix-verify", "minimal", "scan-bandit", "scan-semgrep", "scan-wapiti"])
        #expect(throws: SentinelError.self) { try store.resolve("no-such-profile") }
        // The built-in copy keeps `minimal` working without a profiles directory.
        #expect(try ProfileStore(directories: [], syntax: .jsonOnly(reader: nil)).resolve("minimal") == Profile.minimal)
    }
}
