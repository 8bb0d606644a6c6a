import Foundation
import TestSupport
import Testing

/// The container image built for real (issue 56): `scripts/container.sh` (`make image`) imports a
/// debootstrap root as the base image -- no registry is reachable -- and builds the Containerfile
/// with Debian's podman, installing the .deb `make deb` built; the image then scans a tree bound
/// read-only, `podman run --rm --privileged -v TREE:/src:ro IMAGE scan /src`, with its analysis in
/// Sentinel's own sandbox. Without `--privileged` podman's defaults stop the sandbox, each at one
/// step: `open_tree` of the workspace needs CAP_SYS_ADMIN, bringing its loopback up CAP_NET_ADMIN
/// (neither is in podman's default set), mounting its own /proc a /proc with nothing masked over
/// (`--security-opt unmask=ALL`), its /proc/sys settings and cgroup limits a writable /proc/sys and
/// /sys/fs/cgroup (podman mounts both read-only); with all four the sandbox works, with none root
/// analyses itself and says so.
/// podman's store is the test cache's (layers are reused between runs), its run state and
/// configuration a temporary directory's: the host's own containers are left alone.
@Suite struct ContainerImageCLITests {
    static let image = "localhost/sentinel-test:\(DebianRoot.version)"

    /// podman's configuration for the test: cgroupfs (no systemd here), runc (crun refuses the hybrid
    /// cgroup layout), events in a file, rlimits the caller holds (root without CAP_SYS_RESOURCE
    /// cannot raise podman's default nofile of 1048576, and every container would fail to start), and
    /// the host's network for the build's downloads (no bridge or firewall rules left on the host;
    /// every `podman run` here says `--network none`).
    static func podmanEnvironment(in directory: String) throws -> [String: String] {
        let files = try CLI.runProgram("/bin/sh", ["-c", "ulimit -Hn"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let storage = """
            [storage]
            driver = "overlay"
            graphroot = "\(DebianRoot.cache)/podman/storage"
            runroot = "\(directory)/run"

            """
        let containers = """
            [containers]
            default_ulimits = ["nofile=\(files):\(files)", "nproc=32768:32768"]
            netns = "host"

            [engine]
            cgroup_manager = "cgroupfs"
            events_logger = "file"
            runtime = "runc"
            tmp_dir = "\(directory)/tmp"

            """
        try storage.write(toFile: directory + "/storage.conf", atomically: false, encoding: .utf8)
        try containers.write(toFile: directory + "/containers.conf", atomically: false, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["CONTAINERS_STORAGE_CONF"] = directory + "/storage.conf"
        environment["CONTAINERS_CONF"] = directory + "/containers.conf"
        environment["SENTINEL_ROOT_CACHE"] = DebianRoot.cache
        return environment
    }

    @Test(.enabled(if: DebianRoot.enabled(DebPackageCLITests.package), "needs root and a package from make deb"), .timeLimit(.minutes(90)))
    func theImageBuildsFromTheDebWithPodmanAndScansInItsSandbox() throws {
        let package = DebPackageCLITests.package
        try #require(FileManager.default.fileExists(atPath: package), "\(package) missing: run make deb")
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/podman"), "podman missing: make test-apt-deps")
        let directory = NSTemporaryDirectory() + "sentinel-podman-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = try Self.podmanEnvironment(in: directory)
        func podman(_ arguments: [String], timeout: Double = 600) throws -> CLI.Result {
            try CLI.runProgram("/usr/bin/podman", arguments, environment: environment, timeout: timeout)
        }

        // A cold build debootstraps, installs python3 and the scanners from the network: ~5 minutes.
        let build = try CLI.runProgram(
            CLI.packageRoot + "/scripts/container.sh", [package, Self.image], environment: environment, timeout: 3000)
        try #require(build.status == 0, "\(build.stderr.suffix(4000))")
        #expect(build.stdout == Self.image + "\n", "\(build.stdout)")
        #expect(build.stderr.contains("--build-arg BASE=localhost/debian:bookworm-minbase-"), "\(build.stderr.prefix(2000))")
        // The previous run's image, untagged by this one, goes; the cached layers under this one stay.
        _ = try podman(["image", "prune", "--force"])

        let version = try podman(["run", "--rm", "--network", "none", Self.image, "--version"])
        #expect(version.status == 0 && version.stdout == DebianRoot.version + "\n", "\(version.stdout)\(version.stderr)")
        // The .deb is what is installed, with apt's view of it; no Swift in the image.
        let installed = try podman([
            "run", "--rm", "--network", "none", "--entrypoint", "/bin/sh", Self.image, "-c",
            "dpkg-query -W -f '${Version} ${Status}' sentinel && ! command -v swift && ! ls /usr/lib/swift",
        ])
        #expect(
            installed.status == 0 && installed.stdout.hasPrefix(DebianRoot.version + " install ok installed"),
            "\(installed.stdout)\(installed.stderr)")

        let tree = try CLI.tree(["app.py": Array(DebianRoot.vulnerable.utf8)], prefix: "sentinel-image-scan")
        defer { try? FileManager.default.removeItem(atPath: tree) }
        let scan = try podman([
            "run", "--rm", "--privileged", "--network", "none", "-v", tree + ":/src:ro", Self.image,
            "scan", "/src", "--sast", "--format", "json",
        ])
        #expect(scan.status == 1, "findings exit 1: \(scan.stderr)")
        #expect(DebianRoot.ruleIds(scan.stdout) == DebianRoot.plantedFindings, "\(scan.stdout)")
        #expect(!scan.stderr.contains("analysing as root"), "the analysis ran outside the sandbox: \(scan.stderr)")

        // The sandbox itself, inside the container: an unprivileged process in its own namespaces.
        let sandboxed = try podman([
            "run", "--rm", "--privileged", "--network", "none", Self.image,
            "sandbox", "run", "--profile", "minimal", "--", "/usr/bin/id", "-u",
        ])
        #expect(sandboxed.status == 0 && sandboxed.stdout == "65534\n", "\(sandboxed.stdout)\(sandboxed.stderr)")

        // Just what the sandbox needs instead of --privileged (podman's default seccomp profile kept).
        let narrow = try podman([
            "run", "--rm", "--cap-add", "SYS_ADMIN,NET_ADMIN", "--security-opt", "unmask=ALL", "-v", "/sys/fs/cgroup:/sys/fs/cgroup:rw",
            "--network", "none", "-v", tree + ":/src:ro", Self.image, "scan", "/src", "--sast", "--format", "json",
        ])
        #expect(narrow.status == 1, "findings exit 1: \(narrow.stderr)")
        #expect(DebianRoot.ruleIds(narrow.stdout) == DebianRoot.plantedFindings, "\(narrow.stdout)")
        #expect(!narrow.stderr.contains("analysing as root"), "the analysis ran outside the sandbox: \(narrow.stderr)")

        // Without either the findings are the same, but root had to analyse them itself.
        let confined = try podman([
            "run", "--rm", "--network", "none", "-v", tree + ":/src:ro", Self.image, "scan", "/src", "--sast", "--format", "json",
        ])
        #expect(confined.status == 1, "findings exit 1: \(confined.stderr)")
        #expect(DebianRoot.ruleIds(confined.stdout) == DebianRoot.plantedFindings, "\(confined.stdout)")
        #expect(confined.stderr.contains("no unprivileged analysis sandbox here"), "\(confined.stderr)")
    }
}
