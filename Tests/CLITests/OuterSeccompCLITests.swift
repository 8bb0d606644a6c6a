import Foundation
import TestSupport
import Testing

/// A launcher inside a seccomp filter of someone else's (issue 78): podman's and Docker's default
/// profiles answer `sethostname` with EPERM in a container without CAP_SYS_ADMIN, which is how the
/// image runs without `--privileged`. The sandbox's UTS namespace is still its own; it keeps the
/// name it inherited instead of failing at that stage. The filter here is the same answer, loaded
/// by `Tests/Fixtures/seccomp/deny-sethostname.py` (libseccomp through ctypes) before it runs
/// Sentinel, root's launcher and a user's alike.
@Suite(
    .enabled(
        if: TestHost.canSandbox
            && ["/usr/lib/x86_64-linux-gnu/libseccomp.so.2", "/lib/x86_64-linux-gnu/libseccomp.so.2"].contains {
                FileManager.default.fileExists(atPath: $0)
            },
        "needs root, user namespaces and libseccomp"))
struct OuterSeccompCLITests {
    static let filter = CLI.packageRoot + "/Tests/Fixtures/seccomp/deny-sethostname.py"

    func underTheFilter(_ arguments: [String]) throws -> CLI.Result {
        try CLI.runProgram("/usr/bin/python3", [Self.filter, CLI.binary] + arguments, timeout: 120)
    }

    @Test func aSandboxUnderAFilterRefusingSethostnameKeepsTheInheritedName() throws {
        // The filter holds: the host's own hostname cannot be set under it either.
        let refused = try CLI.runProgram("/usr/bin/python3", [Self.filter, "/bin/hostname", "sentinel-never"], timeout: 60)
        #expect(refused.status != 0, "\(refused.stdout)\(refused.stderr)")

        let run = try underTheFilter(["sandbox", "run", "--profile", "minimal", "--", "/bin/sh", "-c", "id -u; hostname"])
        #expect(run.status == 0, "\(run.stderr)")
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count)
        let host = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(run.stdout == "65534\n\(host)\n", "\(run.stdout)")

        // A user's launcher (the image's recipe: a container user, no capability) likewise.
        let user = try CLI.runProgram(
            "/usr/bin/setpriv",
            [
                "--reuid", "65534", "--regid", "65534", "--clear-groups", "/usr/bin/env", "HOME=/tmp", "/usr/bin/python3", Self.filter,
                CLI.binary,
            ]
                + ["sandbox", "run", "--profile", "minimal", "--", "/bin/sh", "-c", "id -u; hostname"], timeout: 120)
        #expect(user.status == 0 && user.stdout == "65534\n\(host)\n", "\(user.stdout)\(user.stderr)")

        // Without the filter the sandbox names itself (the profile's hostname), as always.
        let plain = try CLI.runProgram(CLI.binary, ["sandbox", "run", "--profile", "minimal", "--", "/bin/hostname"], timeout: 120)
        #expect(plain.status == 0 && plain.stdout != host + "\n", "\(plain.stdout)\(plain.stderr)")
    }
}
