import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Docker and Podman bind `/etc/hosts`, `/etc/resolv.conf` and `/etc/hostname` into every
/// container: a launcher whose `/etc` has mounts below it must still launch (round 4 found every
/// launch failing at `mount /etc`), and those mounts are read-only inside the sandbox too.
/// The container is an equivalent mount namespace the test makes with `unshare`.
@Suite(
    "sandbox: launching inside a container's mount namespace",
    .enabled(if: TestHost.isRoot && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"), "needs root and unshare"))
struct ContainerMountEscapeTests {
    @Test("with /etc/hosts bound over, as Docker and Podman do: the launch works and the file is read-only inside")
    func launchesWithMountsBelowEtc() throws {
        let scratch = try TemporaryDirectory(prefix: "sentinel-container")
        defer { scratch.remove() }
        let hosts = scratch.path + "/hosts"
        try "127.0.0.1 container-hosts-file\n".write(toFile: hosts, atomically: false, encoding: .utf8)
        let payload = "cat /etc/hosts; grep ' /etc/hosts ' /proc/self/mountinfo"
        let script = "mount --bind \"$1\" /etc/hosts && exec \"$0\" sandbox run --profile minimal -- /bin/sh -c \"$2\""
        let result = try CommandRunner.run(
            "/usr/bin/unshare", ["-m", "--propagation", "private", "/bin/sh", "-c", script, PackagePaths.sentinel, hosts, payload],
            environment: ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin"], timeout: 300)
        #expect(result.status == 0, "\(result.summary)")
        #expect(result.stdout.contains("container-hosts-file"), "\(result.summary)")
        let mount = result.stdout.split(separator: "\n").first { $0.contains(" /etc/hosts ") } ?? ""
        let options = mount.split(separator: " ").dropFirst(5).first ?? ""
        #expect(options.split(separator: ",").contains("ro"), "/etc/hosts is not read-only inside: \(mount)")
    }
}
