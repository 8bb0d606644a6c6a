import Foundation
import TestSupport
import Testing

/// `make deb`'s package on a machine without Swift (issue 56): `apt-get install ./sentinel_*.deb`
/// in a clean `debootstrap --variant=minbase bookworm` root resolves the package's Depends and
/// Recommends from the root's own package lists and installs them -- in a network namespace with no
/// interface, from the .debs `scripts/debian-root.sh --fetch` left in the root's apt cache, so what
/// gets installed is what the package declares and nothing else. Installed, the binaries link only
/// what Depends brought, find their rules and profiles under /usr/share/sentinel, and a scan reports
/// the planted findings; `dpkg -L` lists the completions and `--help` texts; a purge removes it all.
/// The package comes from `make deb` (which `make test` runs first) or `SENTINEL_DEB_PACKAGE`.
@Suite struct DebPackageCLITests {
    /// `dist/sentinel_VERSION_ARCH.deb` of this checkout.
    static let package: String =
        ProcessInfo.processInfo.environment["SENTINEL_DEB_PACKAGE"]
        ?? CLI.packageRoot + "/dist/sentinel_\(DebianRoot.version)_\(DebianRoot.debianArchitecture).deb"

    /// The package names of a control field (`libc6 (>= 2.35), libcurl4 | libcurl3`: every alternative).
    static func names(_ field: String) -> [String] {
        field.split(whereSeparator: { $0 == "," || $0 == "|" })
            .compactMap { $0.split(separator: "(")[0].split(separator: " ").first.map(String.init) }
    }

    static func field(_ name: String) throws -> String {
        let result = try CLI.runProgram("/usr/bin/dpkg-deb", ["--field", package, name])
        try #require(result.status == 0, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(.enabled(if: DebianRoot.enabled(package), "needs root and a package from make deb"), .timeLimit(.minutes(60)))
    func aptInstallsThePackageWithItsDependsOnACleanDebianRootAndItScans() throws {
        let package = Self.package
        try #require(FileManager.default.fileExists(atPath: package), "\(package) missing: run make deb")
        #expect(try Self.field("Package") == "sentinel")
        #expect(try Self.field("Version") == DebianRoot.version)
        #expect(try Self.field("Architecture") == DebianRoot.debianArchitecture)
        let depends = Self.names(try Self.field("Depends"))
        let recommends = Self.names(try Self.field("Recommends"))
        // What the binaries link, as README's runtime line names it, is in Depends (besides glibc and libgcc).
        let runtime = try DistributionCLITests.runtimePackages()
        #expect(Set(runtime).isSubset(of: depends), "Depends \(depends) lacks some of README's \(runtime)")
        #expect(Set(depends).subtracting(runtime) == ["libc6", "libgcc-s1"], "\(depends)")

        let made = try DebianRoot.tarball(fetch: depends + recommends)
        try #require(made.status == 0, "\(made.stderr)")
        let (root, unpacked) = try DebianRoot.unpack(made.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        defer { try? FileManager.default.removeItem(atPath: root) }
        try #require(unpacked.status == 0, "\(unpacked.stderr)")
        let name = (package as NSString).lastPathComponent
        try FileManager.default.copyItem(atPath: package, toPath: root + "/tmp/" + name)
        try FileManager.default.createDirectory(atPath: root + "/tmp/src", withIntermediateDirectories: true)
        try DebianRoot.vulnerable.write(toFile: root + "/tmp/src/app.py", atomically: false, encoding: .utf8)

        // Clean: minbase has glibc and what apt itself links, none of the rest, and no Swift.
        let before = try DebianRoot.run(root, ["/usr/bin/dpkg-query", "-W", "-f", "${Package} ${Status}\\n"] + depends)
        let installedBefore = before.stdout.split(separator: "\n").filter { $0.hasSuffix(" install ok installed") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        let missingBefore = Set(depends).subtracting(installedBefore)
        #expect(
            missingBefore.isSuperset(of: ["libcurl4", "libjemalloc2", "libpq5", "libsqlite3-0"]),
            "\(before.stdout)")
        let swift = try DebianRoot.run(root, ["/bin/sh", "-c", "command -v swift || ls /usr/lib/swift /usr/lib/*/libswiftCore.so"])
        #expect(swift.status != 0, "\(swift.stdout)")

        // apt resolves Depends and Recommends from the root's lists, offline: a download would fail.
        let install = try DebianRoot.run(
            root, ["/bin/sh", "-c", "cd /tmp && apt-get install -y ./\(name)"], offline: true, timeout: 1200)
        #expect(install.status == 0, "\(install.stdout.suffix(3000))\(install.stderr)")
        for dependency in depends + recommends {
            let status = try DebianRoot.run(root, ["/usr/bin/dpkg-query", "-W", "-f", "${Status}", dependency])
            #expect(status.stdout == "install ok installed", "\(dependency): \(status.stdout)\(status.stderr)")
        }

        // Every library the binaries need resolves, and each they name is shipped by a package of Depends.
        for binary in ["/usr/bin/sentinel", "/usr/libexec/sentinel/sentinel-cli"] {
            let libraries = try DebianRoot.run(root, ["/usr/bin/ldd", binary])
            #expect(libraries.status == 0 && !libraries.stdout.contains("not found"), "\(binary): \(libraries.stdout)\(libraries.stderr)")
            let elf = try CLI.runProgram("/usr/bin/readelf", ["--dynamic", root + binary])
            let needed = elf.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }
                .compactMap { $0.split(separator: "[").last?.split(separator: "]").first.map(String.init) }
            #expect(needed.contains("libc.so.6"), "\(elf.stdout)")
            for library in needed {
                let owner = try DebianRoot.run(root, ["/usr/bin/dpkg-query", "--search", "*/" + library])
                let owners = owner.stdout.split(separator: "\n").compactMap { $0.split(separator: ":").first.map(String.init) }
                #expect(!Set(owners).isDisjoint(with: depends), "\(binary) needs \(library), shipped by \(owners): not in Depends")
            }
        }

        // libcurl and libpq are loaded on first use, so no binary names them: Depends does, and
        // both load in the installed package (a refused connection is libpq's own message).
        #expect(depends.contains("libcurl4") && depends.contains("libpq5"), "\(depends)")
        let connect = try DebianRoot.run(root, ["sentinel", "fleet", "status", "--database", "postgres://nobody@127.0.0.1:1/x"])
        #expect(connect.status == 1 && connect.stderr.contains("cannot connect: connection to server"), "\(connect.stderr)")
        #expect(!connect.stderr.contains("libpq:"), "\(connect.stderr)")

        let version = try DebianRoot.run(root, ["sentinel", "--version"])
        #expect(version.status == 0 && version.stdout == DebianRoot.version + "\n", "\(version.stdout)\(version.stderr)")
        let rules = try DebianRoot.run(root, ["sentinel", "rules", "list"])
        #expect(
            rules.stdout.split(separator: "\n").last.map(String.init) == "\(try DebianRoot.shippedRuleCount()) rules", "\(rules.stderr)")
        let profiles = try DebianRoot.run(root, ["sentinel", "sandbox", "profiles"])
        #expect(profiles.stdout.split(separator: "\n").contains { $0.hasPrefix("minimal ") }, "\(profiles.stdout)\(profiles.stderr)")
        let scan = try DebianRoot.run(root, ["sentinel", "scan", "/tmp/src", "--sast", "--format", "json"])
        #expect(scan.status == 1, "findings exit 1: \(scan.stderr)")
        #expect(DebianRoot.ruleIds(scan.stdout) == DebianRoot.plantedFindings, "\(scan.stdout)")

        // What dpkg says the package holds: the layout, the completions, the --help texts, the copyright.
        let listed = try DebianRoot.run(root, ["/usr/bin/dpkg", "-L", "sentinel"])
        let files = Set(listed.stdout.split(separator: "\n").map(String.init))
        for file in [
            "/usr/bin/sentinel", "/usr/libexec/sentinel/sentinel-cli", "/usr/share/sentinel/profiles/minimal.yaml",
            "/usr/share/bash-completion/completions/sentinel", "/usr/share/zsh/vendor-completions/_sentinel",
            "/usr/share/fish/vendor_completions.d/sentinel.fish", "/usr/share/doc/sentinel/help/sentinel.txt",
            "/usr/share/doc/sentinel/help/sentinel-scan.txt", "/usr/share/doc/sentinel/copyright",
            "/usr/share/doc/sentinel/LICENSE", "/usr/share/doc/sentinel/THIRD-PARTY-NOTICES.md",
        ] {
            #expect(files.contains(file), "dpkg -L sentinel lacks \(file)")
        }
        #expect(!files.contains { $0.hasPrefix("/usr/local") || $0.hasPrefix("/opt") }, "\(listed.stdout)")
        let copyright = try String(contentsOfFile: root + "/usr/share/doc/sentinel/copyright", encoding: .utf8)
        #expect(copyright.hasPrefix("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"))
        #expect(copyright.contains("\nLicense: Apache-2.0\n"))
        // The shipped texts are the golden ones; the zsh script is where Debian's zsh looks.
        try DistributionCLITests.expectDocumentation(in: root + "/usr/share", zsh: "zsh/vendor-completions/_sentinel")
        let verify = try DebianRoot.run(root, ["/usr/bin/dpkg", "--verify", "sentinel"])
        #expect(verify.status == 0 && verify.stdout.isEmpty, "\(verify.stdout)\(verify.stderr)")

        // A purge leaves nothing of it.
        let purge = try DebianRoot.run(root, ["/usr/bin/apt-get", "purge", "-y", "sentinel"], offline: true, timeout: 600)
        #expect(purge.status == 0, "\(purge.stderr)")
        for path in ["/usr/bin/sentinel", "/usr/libexec/sentinel", "/usr/share/sentinel", "/usr/share/doc/sentinel"] {
            #expect(!FileManager.default.fileExists(atPath: root + path), "\(path) left after purge")
        }
    }

    /// `make release`'s binary, which `make deb` packages.
    static let releaseBinary = CLI.packageRoot + "/.build-release-static/release/sentinel"

    /// The same checkout gives the same bytes: every member dated the last commit (SOURCE_DATE_EPOCH),
    /// owned by root, in the same order.
    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: releaseBinary) || ProcessInfo.processInfo.environment["CI"] != nil,
            "needs the release binary (make release)"), .timeLimit(.minutes(30)))
    func theSameCheckoutBuildsTheSameBytes() throws {
        let directory = NSTemporaryDirectory() + "sentinel-deb-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // One build takes about a minute here (xz of ~90 MB): ten minutes each.
        var digests: [String] = []
        for build in ["a", "b"] {
            let made = try CLI.runProgram(
                CLI.packageRoot + "/scripts/deb.sh", [Self.releaseBinary, directory + "/" + build], timeout: 600)
            try #require(made.status == 0, "\(made.stderr)")
            let digest = try CLI.runProgram("/bin/sh", ["-c", "sha256sum \(directory)/\(build)/sentinel_*.deb | cut -d' ' -f1"])
            digests.append(digest.stdout)
        }
        #expect(digests[0] == digests[1] && digests[0].count == 65, "\(digests)")

        let epoch = try CLI.runProgram("/usr/bin/git", ["-C", CLI.packageRoot, "log", "-1", "--format=%ct"])
        let date = Date(timeIntervalSince1970: try #require(Double(epoch.stdout.trimmingCharacters(in: .whitespacesAndNewlines))))
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "UTC")
        format.dateFormat = "yyyy-MM-dd HH:mm:ss"
        let members = try CLI.runProgram(
            "/bin/sh", ["-c", "dpkg-deb --fsys-tarfile \(directory)/a/sentinel_*.deb | TZ=UTC tar -tv --full-time"])
        let lines = members.stdout.split(separator: "\n")
        #expect(lines.count > 100, "\(members.stderr)")
        for line in lines {
            #expect(line.hasPrefix("d") || line.hasPrefix("-"), "\(line)")
            #expect(line.contains(" root/root ") && line.contains(" \(format.string(from: date)) ./"), "\(line)")
        }
    }
}
