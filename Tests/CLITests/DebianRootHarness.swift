import Foundation
import TestSupport

/// Clean Debian 12 roots for the packaging tests (the tarball, the .deb, the image's base): made
/// by `scripts/debian-root.sh` (debootstrap minbase, cached as a tarball a month), unpacked into a
/// temporary directory, and commands run chrooted in them.
enum DebianRoot {
    /// `uname -m`: the tarball's architecture name (x86_64).
    static let machine: String = {
        var name = utsname()
        uname(&name)
        return withUnsafeBytes(of: &name.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }()

    /// `dpkg --print-architecture`: the .deb's architecture name (amd64).
    static let debianArchitecture: String =
        (try? CLI.runProgram("/usr/bin/dpkg", ["--print-architecture"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        ?? "?"

    /// `VERSION` as the built binary says, for the packages' names.
    static let version: String =
        (try? CLI.run(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? "?"

    /// Where the roots' tarballs (and the image test's podman store) are kept between runs.
    static let cache: String =
        ProcessInfo.processInfo.environment["SENTINEL_TEST_CACHE"]
        ?? (ProcessInfo.processInfo.environment["XDG_CACHE_HOME"] ?? NSHomeDirectory() + "/.cache") + "/sentinel-tests"

    /// A packaging test runs when its package exists, and always in CI (where a missing one fails).
    static func enabled(_ package: String) -> Bool {
        TestHost.isRoot
            && (FileManager.default.fileExists(atPath: package) || ProcessInfo.processInfo.environment["CI"] != nil)
    }

    /// The cached root tarball with `packages` installed and `fetch` ready for apt (see
    /// debian-root.sh). debootstrap takes minutes on a cold cache: 50 minutes is 10x that.
    static func tarball(packages: [String] = [], fetch: [String] = []) throws -> CLI.Result {
        let options = fetch.isEmpty ? [] : ["--fetch", fetch.joined(separator: ",")]
        return try CLI.runProgram(CLI.packageRoot + "/scripts/debian-root.sh", options + [cache] + packages, timeout: 3000)
    }

    /// A fresh directory holding the root unpacked from `tarball`; the caller removes it.
    static func unpack(_ tarball: String) throws -> (root: String, result: CLI.Result) {
        let root = NSTemporaryDirectory() + "sentinel-clean-root-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        return (root, try CLI.runProgram("/usr/bin/tar", ["-xf", tarball, "-C", root], timeout: 600))
    }

    /// Runs `command` chrooted into `root`, in a private mount and pid namespace with its own /proc
    /// (the binary finds its data through /proc/self/exe), with a minimal environment; `offline`
    /// adds a network namespace with no interface in it, so nothing there reaches a network.
    static func run(_ root: String, _ command: [String], offline: Bool = false, timeout: Double = 300) throws -> CLI.Result {
        let environment = [
            "PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME=/root", "SENTINEL_HOME=/tmp/sentinel-home", "LANG=C.UTF-8",
            "DEBIAN_FRONTEND=noninteractive",
        ]
        return try CLI.runProgram(
            "/usr/bin/unshare",
            (offline ? ["--net"] : [])
                + [
                    "--mount", "--propagation", "private", "--pid", "--fork", "--mount-proc=\(root)/proc", "chroot", root, "/usr/bin/env",
                    "-i",
                ]
                + environment + command, timeout: timeout)
    }

    /// A Python file with two planted findings the bundled rules report.
    static let vulnerable = """
        import requests
        import yaml


        def load(text):
            return yaml.load(text)


        def fetch(url):
            return requests.get(url, verify=False)

        """

    /// The rule ids a `--sast` scan of `vulnerable` reports.
    static let plantedFindings: Set<String> = ["python.requests-verify-false", "python.yaml-load"]

    /// The rule ids of a `scan --format json` report.
    static func ruleIds(_ json: String) -> Set<String> {
        let report = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any]
        let findings = report?["findings"] as? [[String: Any]] ?? []
        return Set(findings.compactMap { $0["ruleId"] as? String })
    }

    /// How many rules the checkout ships: `rules list`'s last line of an install that found them.
    /// Source and sanitizer sets (`set:` files) are what rules include, not rules themselves.
    static func shippedRuleCount() throws -> Int {
        try FileManager.default.subpathsOfDirectory(atPath: CLI.packageRoot + "/rules")
            .filter { $0.hasSuffix(".yaml") }
            .filter { path in
                let text = (try? String(contentsOfFile: CLI.packageRoot + "/rules/" + path, encoding: .utf8)) ?? ""
                return !text.split(separator: "\n").contains { $0.hasPrefix("set:") }
            }.count
    }
}
