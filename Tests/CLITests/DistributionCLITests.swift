import Foundation
import TestSupport
import Testing

/// `make dist`'s tarball on a machine without Swift (issue 27): unpacked with `tar -x` into
/// `/opt/sentinel` of a clean `debootstrap --variant=minbase bookworm` root that holds only the
/// runtime packages README's Install section lists, it runs there -- `--version`, its rules and
/// profiles found beside it, and a scan with the bundled rules that reports the planted findings.
/// The tarball comes from `make dist` (which `make test` runs first) or `SENTINEL_DIST_TARBALL`;
/// the root is cached by `scripts/debian-root.sh`, so only the first run of a month downloads.
@Suite struct DistributionCLITests {
    /// `dist/sentinel-VERSION-linux-ARCH.tar.gz` of this checkout, VERSION as the built binary says.
    static let tarball: String = {
        if let path = ProcessInfo.processInfo.environment["SENTINEL_DIST_TARBALL"] { return path }
        return CLI.packageRoot + "/dist/sentinel-\(DebianRoot.version)-linux-\(DebianRoot.machine).tar.gz"
    }()

    /// Runs when there is a tarball to test, and always in CI (where a missing one is a failure).
    static let enabled = DebianRoot.enabled(tarball)

    /// The packages of README's `apt-get install ... # the runtime libraries` line.
    static func runtimePackages() throws -> [String] {
        let readme = try String(contentsOfFile: CLI.packageRoot + "/README.md", encoding: .utf8)
        let line = try #require(
            readme.split(separator: "\n").first { $0.contains("apt-get install") && $0.hasSuffix("# the runtime libraries") })
        let words = line.split(separator: "#")[0].split(separator: " ").map(String.init)
        return words.filter { !$0.hasPrefix("-") && !["sudo", "apt-get", "install"].contains($0) }
    }

    static func text(_ file: String) throws -> String {
        try String(contentsOfFile: CLI.packageRoot + "/" + file, encoding: .utf8)
    }

    /// The Containerfile compiles nothing: it installs the .deb `make deb` builds, the build
    /// context's only package, into the BASE image `make image` (scripts/container.sh) imports, apt
    /// resolving its Depends. The GitHub Actions example installs the tarball `make dist` builds with
    /// README's runtime packages and runs README's CI recipe's commands unchanged.
    @Test func theContainerfileAndTheActionsExampleInstallAsReadmeSays() throws {
        let packages = try Self.runtimePackages().joined(separator: " ")
        let containerfile = try Self.text("Containerfile")
        #expect(containerfile.contains("ARG BASE=") && containerfile.contains("\nFROM ${BASE}\n"))
        #expect(!containerfile.contains("FROM swift") && !containerfile.contains("RUN make"))
        #expect(containerfile.contains("COPY dist/ /tmp/dist/\nRUN set -- /tmp/dist/sentinel_*.deb"))
        #expect(containerfile.contains("apt-get install -y -qq \"$1\""))
        #expect(containerfile.contains("ENTRYPOINT [\"sentinel\"]"))
        let context = try Self.text(".dockerignore").split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(context == ["*", "!dist/sentinel_*.deb", "!scripts/"], "\(context)")
        let makefile = try Self.text("Makefile")
        #expect(makefile.contains("\nimage: deb\n") && makefile.contains("\tscripts/container.sh $(DISTDIR)/sentinel_"))

        let example = try Self.text("docs/github-actions.yml")
        #expect(example.contains("--no-install-recommends \(packages) \\\n"), "runtime packages: \(packages)")
        #expect(example.contains("tar -xzf \"$tarball\" -C /usr/local --strip-components=1"))
        let readme = try Self.text("docs/ci.md")
        let recipe =
            try #require(readme.components(separatedBy: "```yaml\nname: sentinel\n").dropFirst().first)
            .components(separatedBy: "```").first ?? ""
        let steps = recipe.split(separator: "\n").filter { $0.contains("- run: sentinel") || $0.contains("sarif") }
        #expect(steps.count >= 4, "\(recipe)")
        for step in steps { #expect(example.contains(step + "\n"), "docs/ci.md's recipe step missing from the example: \(step)") }
    }

    /// The `--help` texts shipped are the golden ones (every command, same text), and the three
    /// completion scripts are argument-parser's for `sentinel` (zsh's at `zsh`, relative to `share`).
    static func expectDocumentation(in share: String, zsh: String = "zsh/site-functions/_sentinel") throws {
        let golden = CLI.packageRoot + "/Tests/CLITests/Golden"
        let expected = try FileManager.default.contentsOfDirectory(atPath: golden).filter { $0.hasPrefix("help-") }.sorted()
        let shipped = try FileManager.default.contentsOfDirectory(atPath: share + "/doc/sentinel/help").sorted()
        #expect(shipped.map { "help-" + $0 } == expected)
        for file in shipped {
            let text = try String(contentsOfFile: share + "/doc/sentinel/help/" + file, encoding: .utf8)
            #expect(text == (try String(contentsOfFile: golden + "/help-" + file, encoding: .utf8)), "\(file)")
        }
        let completions = [
            "bash-completion/completions/sentinel": "complete -o filenames -F _sentinel sentinel",
            zsh: "#compdef sentinel", "fish/vendor_completions.d/sentinel.fish": "complete -c 'sentinel'",
        ]
        for (file, marker) in completions {
            let text = (try? String(contentsOfFile: share + "/" + file, encoding: .utf8)) ?? ""
            #expect(text.contains(marker), "\(file): \(text.prefix(200))")
        }
    }

    @Test(.enabled(if: enabled, "needs root and a tarball from make dist"), .timeLimit(.minutes(60)))
    func theTarballInstallsAndScansOnACleanDebianRoot() throws {
        let tarball = Self.tarball
        try #require(FileManager.default.fileExists(atPath: tarball), "\(tarball) missing: run make dist")
        let name = (tarball as NSString).lastPathComponent
        let directory = (tarball as NSString).deletingLastPathComponent
        let checksum = try CLI.runProgram("/usr/bin/sha256sum", ["-c", name + ".sha256"], directory: directory)
        #expect(checksum.status == 0 && checksum.stdout == "\(name): OK\n", "\(checksum.stdout)\(checksum.stderr)")

        let packages = try Self.runtimePackages()
        #expect(packages.contains("libseccomp2") && packages.contains("libcurl4"), "\(packages)")
        let made = try DebianRoot.tarball(packages: packages)
        try #require(made.status == 0, "\(made.stderr)")
        let (root, unpackRoot) = try DebianRoot.unpack(made.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        defer { try? FileManager.default.removeItem(atPath: root) }
        try #require(unpackRoot.status == 0, "\(unpackRoot.stderr)")
        try FileManager.default.createDirectory(atPath: root + "/opt/sentinel", withIntermediateDirectories: true)
        let unpack = try CLI.runProgram(
            "/usr/bin/tar", ["-xzf", tarball, "-C", root + "/opt/sentinel", "--strip-components=1"], timeout: 600)
        try #require(unpack.status == 0, "\(unpack.stderr)")
        try DebianRoot.vulnerable.write(toFile: root + "/tmp/app.py", atomically: false, encoding: .utf8)
        try Self.expectDocumentation(in: root + "/opt/sentinel/share")

        // No Swift in the root: no toolchain, no runtime library to fall back on.
        let swift = try DebianRoot.run(root, ["/bin/sh", "-c", "command -v swift || ls /usr/lib/swift /usr/lib/*/libswiftCore.so"])
        #expect(swift.status != 0, "\(swift.stdout)")
        for binary in ["/opt/sentinel/bin/sentinel", "/opt/sentinel/libexec/sentinel/sentinel-cli"] {
            let libraries = try DebianRoot.run(root, ["/usr/bin/ldd", binary])
            #expect(libraries.status == 0 && !libraries.stdout.contains("not found"), "\(binary): \(libraries.stdout)\(libraries.stderr)")
        }
        let sums = try DebianRoot.run(root, ["/bin/sh", "-c", "cd /opt/sentinel && sha256sum --quiet -c share/doc/sentinel/SHA256SUMS"])
        #expect(sums.status == 0, "\(sums.stdout)\(sums.stderr)")

        let version = try DebianRoot.run(root, ["/opt/sentinel/bin/sentinel", "--version"])
        #expect(version.status == 0, "\(version.stderr)")
        #expect(name == "sentinel-\(version.stdout.trimmingCharacters(in: .newlines))-linux-\(DebianRoot.machine).tar.gz")

        let shippedRules = try DebianRoot.shippedRuleCount()
        let rules = try DebianRoot.run(root, ["/opt/sentinel/bin/sentinel", "rules", "list"])
        #expect(rules.status == 0, "\(rules.stderr)")
        #expect(rules.stdout.split(separator: "\n").last.map(String.init) == "\(shippedRules) rules", "\(rules.stdout)")
        let profiles = try DebianRoot.run(root, ["/opt/sentinel/bin/sentinel", "sandbox", "profiles"])
        #expect(profiles.status == 0, "\(profiles.stderr)")
        #expect(profiles.stdout.split(separator: "\n").contains { $0.hasPrefix("minimal ") }, "\(profiles.stdout)")

        let scan = try DebianRoot.run(root, ["/opt/sentinel/bin/sentinel", "scan", "/tmp/app.py", "--sast", "--format", "json"])
        #expect(scan.status == 1, "findings exit 1: \(scan.stderr)")
        #expect(DebianRoot.ruleIds(scan.stdout) == DebianRoot.plantedFindings, "\(scan.stdout)")

        // An install that lost its rules fails closed: no "0 rules", no clean scan.
        try FileManager.default.removeItem(atPath: root + "/opt/sentinel/share/sentinel/rules")
        let noRules = try DebianRoot.run(root, ["/opt/sentinel/bin/sentinel", "rules", "list"])
        #expect(noRules.status == 2, "\(noRules.stdout)")
        #expect(noRules.stderr.contains("no rule directory found"), "\(noRules.stderr)")
        let unchecked = try DebianRoot.run(root, ["/opt/sentinel/bin/sentinel", "scan", "/tmp/app.py", "--sast"])
        #expect(unchecked.status == 3, "\(unchecked.stdout)")
        #expect(unchecked.stderr.contains("no rule directory found"), "\(unchecked.stderr)")
    }
}
