// swift-tools-version: 5.4
import PackageDescription

/// libFuzzer targets over the readers of attacker-controlled input (issue 26). Opt-in: the main
/// build and CI never see this package; `bench/fuzz.sh` builds it with
/// `-sanitize=fuzzer -parse-as-library` and runs one target at a time.
let package = Package(
    name: "SentinelFuzz",
    dependencies: [.package(name: "Sentinel", path: "..")],
    targets: [
        // The typed-error contract every target checks: a reader returns or throws SentinelError.
        .target(name: "FuzzSupport", dependencies: [.product(name: "Support", package: "Sentinel")]),
        .executableTarget(
            name: "fuzz-documents",
            dependencies: ["FuzzSupport", .product(name: "Documents", package: "Sentinel"), .product(name: "DocumentsYAML", package: "Sentinel")]
        ),
        .executableTarget(
            name: "fuzz-lockfiles",
            dependencies: ["FuzzSupport", .product(name: "SCA", package: "Sentinel")]
        ),
        .executableTarget(
            name: "fuzz-requirements",
            dependencies: ["FuzzSupport", .product(name: "SCA", package: "Sentinel")]
        ),
        .executableTarget(
            name: "fuzz-python",
            dependencies: ["FuzzSupport", .product(name: "PythonSyntax", package: "Sentinel")]
        ),
        .executableTarget(
            name: "fuzz-signals",
            dependencies: ["FuzzSupport", .product(name: "Signals", package: "Sentinel")]
        ),
        .executableTarget(
            name: "fuzz-osvzip",
            dependencies: ["FuzzSupport", .product(name: "SCA", package: "Sentinel")]
        ),
    ]
)
