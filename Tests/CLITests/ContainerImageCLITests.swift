import Foundation
import TestSupport
import Testing

/// The container image built for real (issue 56): `scripts/container.sh` (`make image`) imports a
/// debootstrap root as the base image -- no registry is reachable -- and builds the Containerfile
/// with Debian's podman, installing the .deb `make deb` built. The image then scans a tree bound
/// read-only the way README says, without `--privileged` or any capability (issue 78): as the
/// user owning the tree, `--user UID --security-opt unmask=ALL --cap-drop ALL --security-opt
/// no-new-privileges`, where the scan's tools and every other launch run in Sentinel's sandbox
/// nested in the container (its own user namespace; `unmask=ALL` because the kernel lets a
/// sandbox mount its own /proc only where no part of the container's is masked; podman's default
/// seccomp profile refuses `sethostname`, and the sandbox then keeps the container's name).
/// Started as root without privileges, root cannot make its sandbox (no CAP_SYS_ADMIN, cgroups
/// read-only) and analyses itself, saying so and how to avoid it.
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

        // A checkout belongs to the runner's user (GitHub's is 1001), not to the container's root.
        let owner: uid_t = 1001
        let tree = try CLI.tree(["app.py": Array(DebianRoot.vulnerable.utf8)], prefix: "sentinel-image-scan")
        defer { try? FileManager.default.removeItem(atPath: tree) }
        for path in [tree, tree + "/app.py"] { #expect(chown(path, owner, owner) == 0) }
        let recipe = [
            "--user", "\(owner):\(owner)", "--security-opt", "unmask=ALL", "--cap-drop", "ALL", "--security-opt",
            "no-new-privileges",
        ]
        let scan = try podman(
            ["run", "--rm"] + recipe + [
                "--network", "none", "-v", tree + ":/src:ro", Self.image, "scan", "/src", "--sast", "--format", "json",
            ])
        #expect(scan.status == 1, "findings exit 1: \(scan.stderr)")
        #expect(DebianRoot.ruleIds(scan.stdout) == DebianRoot.plantedFindings, "\(scan.stdout)")
        #expect(!scan.stderr.contains("as root"), "\(scan.stderr)")

        // Its launches run in the sandbox nested in the container: an unprivileged id in namespaces
        // of its own, the container's hostname kept where podman's seccomp profile refuses a new one.
        let sandboxed = try podman(
            ["run", "--rm"] + recipe + [
                "--network", "none", "--hostname", "image-test", Self.image, "sandbox", "run", "--profile", "minimal", "--",
                "/bin/sh", "-c", "id -u; hostname; cat /proc/self/uid_map",
            ])
        #expect(sandboxed.status == 0, "\(sandboxed.stdout)\(sandboxed.stderr)")
        let lines = sandboxed.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "65534" && lines.dropFirst().first == "image-test", "\(sandboxed.stdout)")
        // One id mapped, the container user's: not the container's root, let alone the host's.
        #expect(
            lines.dropFirst(2).map { $0.split(separator: " ").map(String.init) } == [["65534", "\(owner)", "1"]], "\(sandboxed.stdout)")
        // Bandit runs through the sandbox too: its finding joins the scan's, no launch failed.
        let tools = try podman(
            ["run", "--rm"] + recipe + [
                "--network", "none", "-v", tree + ":/src:ro", Self.image, "scan", "/src", "--sast", "--tools", "bandit", "--format", "json",
            ])
        #expect(tools.status == 1 && !tools.stderr.contains("failed"), "\(tools.stderr)")
        #expect(DebianRoot.ruleIds(tools.stdout).contains { $0.hasPrefix("bandit.") }, "\(tools.stdout)")

        // Root without privileges: the same findings, but root analysed them itself, and said so.
        let confined = try podman([
            "run", "--rm", "--network", "none", "-v", tree + ":/src:ro", Self.image, "scan", "/src", "--sast", "--format", "json",
        ])
        #expect(confined.status == 1, "findings exit 1: \(confined.stderr)")
        #expect(DebianRoot.ruleIds(confined.stdout) == DebianRoot.plantedFindings, "\(confined.stdout)")
        #expect(confined.stderr.contains("analysing as root: no unprivileged analysis sandbox here"), "\(confined.stderr)")
        #expect(confined.stderr.contains("--user UID --security-opt unmask=ALL"), "\(confined.stderr)")
    }
}
