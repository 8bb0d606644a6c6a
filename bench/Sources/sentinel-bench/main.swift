// Measures the launcher in-process against spawning a peer (bwrap) the same way, so the
// ratio compares sandbox set-up cost rather than process start-up of the measuring tool.
#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Sandbox

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

func spawnAndWait(_ argv: [String]) -> Int32 {
    var pid: pid_t = 0
    let cArgs = argv.map { strdup($0) } + [nil]
    defer { for arg in cArgs { free(arg) } }
    guard posix_spawnp(&pid, argv[0], nil, nil, cArgs, environ) == 0 else { return -1 }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    return status
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "parse" {
    ParseParity.run()
    exit(0)
}
if arguments.first == "parse-js" {
    JSParseParity.run(Array(arguments.dropFirst()))
    exit(0)
}
if arguments.first == "queue" {
    QueueBench.run(Array(arguments.dropFirst()))
    exit(0)
}
guard arguments.count >= 2, let iterations = Int(arguments[1]) else {
    FileHandle.standardError.write(
        Data(
            ("usage: sentinel-bench launcher|spawn N [-- argv...] | parse < paths | parse-js [FILE...]"
                + " | queue [URL] --queued N --workers W\n").utf8))
    exit(2)
}
var samples: [Double] = []
switch arguments[0] {
case "launcher", "launcher-no-cgroup", "launcher-no-seccomp":
    var profile = Profile.minimal
    if arguments[0] == "launcher-no-seccomp" { profile.seccomp = .disabled }
    let root = try NewRootDirectory.create()
    defer { root.remove() }
    let plan = try LaunchPlan.make(LaunchRequest(profile: profile, command: ["/bin/true"]), newRoot: root.path)
    var options = LaunchOptions(profile: profile, output: .capture)
    if arguments[0] == "launcher-no-cgroup" { options.cgroupRoot = "/nonexistent" }
    for _ in 0..<iterations {
        samples.append(
            try milliseconds {
                let result = try Launcher.run(plan, options: options)
                precondition(result.exitCode == 0, "sandboxed /bin/true failed: \(result.exitCode)")
            })
    }
case "cgroup":
    let hierarchy = Cgroups.detect()!
    for _ in 0..<iterations {
        samples.append(
            try milliseconds {
                let group = try hierarchy.create(name: Cgroups.nextName(), limits: CgroupLimits(memoryBytes: 1 << 29, pids: 128, cpus: 1))
                group.destroy()
            })
    }
case "spawn":
    let argv = Array(arguments.drop { $0 != "--" }.dropFirst())
    for _ in 0..<iterations {
        samples.append(milliseconds { precondition(spawnAndWait(argv) == 0, "\(argv) failed") })
    }
default:
    exit(2)
}
samples.sort()
let mean = samples.reduce(0, +) / Double(samples.count)
let median = samples[samples.count / 2]
print(
    String(
        format: "%@ n=%d mean=%.3f ms median=%.3f ms min=%.3f ms", arguments[0], samples.count, mean, median,
        samples.first ?? 0))
