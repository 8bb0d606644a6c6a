// swift-tools-version: 6.2
import Foundation
import PackageDescription

/// C targets are compiled with every warning as an error: the clone..exec window is
/// the one place where a silent mistake becomes an escape.
let strictC: [CSetting] = [
    .enableWarning("all"),
    .enableWarning("extra"),
    .treatAllWarnings(as: .error),
    .define("_GNU_SOURCE"),
]

/// The lean launcher's only shared libraries are glibc's (libc, libm and the loader): libstdc++ (the
/// Swift runtime's C++ half), libgcc and libseccomp are linked from their archives. Every
/// shared library costs the loader a search, an open, its mappings and its relocations at every
/// launch: libstdc++.so's relocation alone was 1.6 M instructions, a third of `sentinel --version`
/// (callgrind, bench/launch-overhead.sh). glibc stays shared: a static glibc loads NSS modules
/// (`libnss_systemd`, which the host-id check needs) by a `dlopen` that crashed the launcher.
///
/// Each directory under `scripts/static-libs` holds one link to a Debian 12 archive (the toolchain's
/// libstdc++-12-dev, libseccomp-dev), so `-lstdc++` and `-lseccomp` find the archive before the
/// shared library. A directory is passed only where its link resolves (another gcc or architecture:
/// the shared library is used as before; a dangling link in the search path would fail the link). Not `sentinel-cli`: Foundation's ICU loads the shared libstdc++ into it anyway.
///
/// It is also linked by lld with its 37,700 relative relocations packed (`DT_RELR`, glibc 2.36):
/// 7 KB instead of 900 KB of `RELA` entries for the loader to read and apply one by one, 190 k
/// fewer instructions for `sentinel --version` (callgrind, 1,070 k → 887 k).
let staticArchiveDirectories = ["libstdc++", "libseccomp"]
    .map { (directory: Context.packageDirectory + "/scripts/static-libs/" + $0, archive: $0 + ".a") }
    .filter { FileManager.default.fileExists(atPath: $0.directory + "/" + $0.archive) }
let leanLauncherLinking: LinkerSetting = .unsafeFlags(
    staticArchiveDirectories.map { "-L" + $0.directory }
        + ["-Xclang-linker", "-static-libgcc", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"],
    .when(platforms: [.linux], configuration: .release))

let package = Package(
    name: "Sentinel",
    platforms: [.macOS(.v15)],
    products: [
        // The `sentinel` users run: a lean launcher that runs `sandbox run` and `--version` itself
        // and hands every other command to `sentinel-cli` (issue 33: a sandbox launch must not pay
        // for loading the whole toolkit, 45 shared libraries and every analysis's metadata).
        .executable(name: "sentinel", targets: ["sentinel"]),
        .executable(name: "sentinel-cli", targets: ["sentinel-cli"]),
        .library(name: "Sandbox", targets: ["Sandbox"]),
        // The readers fuzz/ (a separate, opt-in package) drives with libFuzzer.
        .library(name: "Support", targets: ["Support"]),
        .library(name: "Documents", targets: ["Documents"]),
        .library(name: "DocumentsYAML", targets: ["DocumentsYAML"]),
        .library(name: "Heal", targets: ["Heal"]),
        .library(name: "Signals", targets: ["Signals"]),
        .library(name: "Findings", targets: ["Findings"]),
        .library(name: "SyntaxTree", targets: ["SyntaxTree"]),
        .library(name: "PythonSyntax", targets: ["PythonSyntax"]),
        .library(name: "JavaScriptSyntax", targets: ["JavaScriptSyntax"]),
        .library(name: "JavaScriptLowering", targets: ["JavaScriptLowering"]),
        .library(name: "SAST", targets: ["SAST"]),
        .library(name: "TemplateSyntax", targets: ["TemplateSyntax"]),
        .library(name: "SCA", targets: ["SCA"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // System libraries (pkg-config names; `make` installs the -dev packages first). libseccomp
        // without pkg-config: its `-L/usr/lib/x86_64-linux-gnu` would lead the link's search path and
        // win over the lean launcher's archive. Debian keeps its header and library in the default
        // paths; CSandbox names the library itself (a C target does not autolink).
        .systemLibrary(name: "CSeccomp"),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // libcurl (HTTP) and libpq, PostgreSQL's own client (fleet mode's server connection: URIs,
        // PGPASSFILE, sslmode, LISTEN/NOTIFY as every PostgreSQL tool has them), each loaded with
        // dlopen on first use: linked, the two and what they need (GnuTLS, Kerberos, LDAP: 30
        // libraries) cost every process's start 3 ms of CPU, and most commands use neither. libpq
        // over PostgresNIO: a first build of PostgresNIO took 294 s on this machine and brings an
        // event loop into a synchronous store. Debian's -dev packages hold the headers.
        .target(name: "CCurl", cSettings: strictC, linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CPostgres", cSettings: strictC, linkerSettings: [.linkedLibrary("dl")]),

        // The clone..execve window: C only, no Swift runs in the child.
        .target(
            name: "CSandbox",
            dependencies: ["CSeccomp"],
            cSettings: strictC,
            linkerSettings: [.linkedLibrary("seccomp")]
        ),
        // The glibc calls Swift's Glibc module leaves out (pipe2, accept4, pwritev2, openat2...).
        .target(name: "CSystem", cSettings: strictC),

        .target(name: "Support", dependencies: ["CSystem"]),
        // SHA-256 through libcrypto, apart from Support so that the lean launcher does not load
        // libcrypto (4,000 relocations, a third of its dynamic linking) for a hash it never takes.
        .target(name: "Digest", dependencies: ["CCrypto", "Support"]),
        // One positioned document node; the JSON and TOML readers; the JSON writer.
        .target(name: "Documents", dependencies: ["Support"]),
        // The YAML reader (through Yams), apart from Documents: Yams links Foundation's NS* layer
        // and ICU (34 MB of data, 40k relocations), which the lean launcher must not load.
        .target(name: "DocumentsYAML", dependencies: ["Documents", "Support", "Yams"]),
        // SQLite connections, statements, migrations and the state directories ($SENTINEL_HOME or XDG).
        // and the fleet's job queue on SQLite or PostgreSQL (one `JobQueue` interface).
        .target(name: "Store", dependencies: ["CPostgres", "CSQLite", "Digest", "Support"]),
        // A small libcurl client (OSV exports now; DAST, GitHub and LLM providers later).
        .target(name: "HTTP", dependencies: ["CCurl", "CSystem", "Support"]),
        // The web's text formats, read from hostile hands: the one URL type (WebURL: parsing,
        // resolution, forms), HTML's entities and byte classes, and the one bounded XML reader.
        .target(name: "Web", dependencies: ["Support"]),
        // The git CLI through one runner: diffs of candidate patches (later branches and commits).
        .target(name: "Git", dependencies: ["Egress", "Sandbox", "Support"]),
        // The tamper-evident audit log: append-only JSON lines chained by SHA-256.
        .target(name: "Audit", dependencies: ["Digest", "Support"]),
        // The egress proxy: allow/deny policy, reserved ranges, relay, resolver (no sandbox types).
        .target(name: "Egress", dependencies: ["CSystem", "Support"]),
        .target(name: "Sandbox", dependencies: ["CSandbox", "CSystem", "Documents", "Egress", "Support"]),
        // Lines and columns of a source text (LineIndex, SourceColumn): below Findings and PythonSyntax.
        .target(name: "SourcePositions"),
        .target(name: "Findings", dependencies: ["Digest", "Documents", "SourcePositions", "Support"]),
        // The tree every language lowers into, owned by no parser: SyntaxNode, SyntaxKind, typed
        // views, the generic queries, the large-stack runner (issue 77, "the language seam").
        .target(name: "SyntaxTree", dependencies: ["SourcePositions", "Support"]),
        // The Python lexer and parser (SAST matches on its trees; heal will check candidates with it).
        .target(name: "PythonSyntax", dependencies: ["SourcePositions", "Support", "SyntaxTree"]),
        // The JavaScript, JSX and TypeScript lexer and parser (issue 60; Vue and Svelte `<script>` blocks too).
        .target(name: "JavaScriptSyntax", dependencies: ["SourcePositions", "Support"]),
        // The JavaScript/TypeScript tree lowered into the generic tree the SAST engine analyses (issue 60).
        .target(name: "JavaScriptLowering", dependencies: ["JavaScriptSyntax", "SourcePositions", "Support", "SyntaxTree"]),
        // The one ordered registry of the languages the engine reads, with the built-ins
        // registered (Python, JavaScript, TypeScript); SourceLanguage (issue 77, the language seam).
        .target(name: "Languages", dependencies: ["JavaScriptLowering", "PythonSyntax", "Support", "SyntaxTree"]),
        // The Jinja2/Django template tokenizer with the HTML context of each output (SAST's template rules read it).
        .target(name: "TemplateSyntax"),
        // The secrets detector: known token formats, entropy, generic assignments, redaction.
        .target(name: "Secrets", dependencies: ["Findings", "PythonSyntax", "SourcePositions", "Support"]),
        .target(
            name: "SAST",
            dependencies: [
                "Digest", "Documents", "DocumentsYAML", "Findings", "JavaScriptLowering", "Languages", "PythonSyntax",
                "Secrets", "SourcePositions", "Support", "SyntaxTree", "TemplateSyntax",
            ]),
        .target(
            name: "SCA", dependencies: ["Documents", "DocumentsYAML", "Findings", "HTTP", "SourcePositions", "Store", "Support", "CZlib"]),
        // The native web scanner: crawler, passive and active checks, run as a sandboxed worker.
        .target(name: "DAST", dependencies: ["Documents", "DocumentsYAML", "Findings", "HTTP", "Support", "Web"]),
        // The scanner interface: `Scanner`, its target, output and context (the sandbox runner for tools).
        .target(name: "ScanCore", dependencies: ["DocumentsYAML", "Findings", "Languages", "Sandbox", "Support"]),
        // The external tools, run in the sandbox: Bandit, Semgrep, Wapiti, ZAP.
        .target(
            name: "Adapters",
            dependencies: [
                "DAST", "Documents", "Findings", "PythonSyntax", "Sandbox", "SAST", "ScanCore", "Secrets", "SourcePositions", "Support",
                "Web",
            ]),
        // The native scanners (SAST, secrets, SCA, DAST) and the orchestration of every scanner into one report.
        .target(
            name: "Scan",
            dependencies: [
                "Adapters", "DAST", "Documents", "DocumentsYAML", "Findings", "Git", "JavaScriptSyntax", "Languages", "PythonSyntax",
                "Sandbox", "SAST", "SCA", "ScanCore", "Secrets", "SourcePositions", "Support", "Web",
            ]
        ),
        // The signals heal works on: pytest output, JUnit XML, tracebacks, reports, JSON log lines.
        .target(name: "Signals", dependencies: ["Digest", "Documents", "Findings", "Support", "Web"]),
        // The LLM provider: configuration, client (over HTTP), prompt, and the edits of its reply.
        .target(name: "LLM", dependencies: ["Documents", "Git", "HTTP", "Support"]),
        // `sentinel heal`: actors, the overlay workspace, verifier, reflector, memory, the loop.
        .target(
            name: "Heal",
            dependencies: [
                "Digest", "Documents", "Findings", "Git", "Languages", "LLM", "PythonSyntax", "SAST", "SCA", "Sandbox", "Scan",
                "ScanCore", "Signals", "Store", "Support", "SyntaxTree",
            ]
        ),
        // Progressive autonomy: policy, risk, the controller, proposals, the GitHub publisher.
        .target(
            name: "Autonomy",
            dependencies: ["Audit", "Digest", "Documents", "DocumentsYAML", "Git", "HTTP", "Heal", "Signals", "Store", "Support"]
        ),
        // Fleet mode: workers that claim jobs from the queue and run them as sandboxed `sentinel`
        // runs, the scheduler, JSON logs and Prometheus metrics.
        .target(name: "Fleet", dependencies: ["Audit", "Autonomy", "Digest", "Findings", "Git", "HTTP", "Heal", "Store", "Support"]),
        // What both executables share: `sandbox run`'s options and runner, the console, the version.
        .target(name: "CLICore", dependencies: ["Egress", "Sandbox", "Support"]),
        .target(
            name: "SentinelCLI",
            dependencies: [
                "Adapters", "Audit", "Autonomy", "CLICore", "DAST", "Digest", "Findings", "Fleet", "Git", "Heal", "Sandbox", "SAST", "SCA",
                "Scan", "ScanCore", "Signals", "Store", "Support", "Web",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // jemalloc (Debian's libjemalloc2) replaces glibc's malloc for the whole process: the
        // analyses allocate small objects from every thread, where it is 4-6 % faster in wall and
        // CPU time at the Django tree root than glibc's, at the same peak memory (bench/sast-speed.sh
        // and LD_PRELOAD, 2026-11-25; BENCHMARKS.md). Linked as a shared library: the static archive's
        // symbols would be made local by the static Swift runtime's `--exclude-libs ALL`.
        .executableTarget(
            name: "sentinel-cli", dependencies: ["SentinelCLI"],
            linkerSettings: [.linkedLibrary("jemalloc", .when(platforms: [.linux]))]
        ),
        // The lean launcher: only the sandbox and the command line's core (libc and libseccomp; no
        // libcurl, libpq, SQLite, libcrypto or jemalloc; FoundationEssentials, but not Foundation's
        // NS* layer, Yams or ICU), so `sandbox run` starts in a fraction of
        // `sentinel-cli`'s time (`LeanLauncherCLITests` checks what it links).
        .executableTarget(name: "sentinel", dependencies: ["CLICore"], linkerSettings: [leanLauncherLinking]),

        // A C program the escape battery runs inside the sandbox: one attempt per verb.
        // Linked without the shared Swift runtime: the sandbox shows only the host's /usr and /lib.
        .executableTarget(
            name: "sentinel-probe", path: "Tests/Probe", cSettings: strictC,
            linkerSettings: [.unsafeFlags(["-static-stdlib"])]
        ),

        // Benchmarks' helpers (bench/*.sh drive them); not shipped.
        .executableTarget(
            name: "sentinel-bench", dependencies: ["JavaScriptSyntax", "PythonSyntax", "Sandbox", "Store"],
            path: "bench/Sources/sentinel-bench"),

        .testTarget(name: "SupportTests", dependencies: ["CSystem", "Digest", "Support", "TestSupport"]),
        .testTarget(name: "DocumentsTests", dependencies: ["Documents", "DocumentsYAML", "Support"]),
        .testTarget(name: "StoreTests", dependencies: ["Store", "Support", "TestSupport"]),
        // A loopback HTTP server the HTTP, SCA and CLI tests start on 127.0.0.1.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "Support", "TestSupport"]),
        .testTarget(name: "EgressTests", dependencies: ["Egress", "Support", "TestSupport"]),
        .testTarget(name: "SandboxTests", dependencies: ["Sandbox", "CSandbox", "CSystem", "ScanCore", "Support", "TestSupport"]),
        .testTarget(
            name: "EscapeTests", dependencies: ["Autonomy", "Git", "Heal", "Sandbox", "Signals", "Store", "Support", "TestSupport"]),
        .testTarget(name: "FindingsTests", dependencies: ["Digest", "Findings", "SourcePositions", "Support", "TestSupport"]),
        .testTarget(name: "PythonSyntaxTests", dependencies: ["PythonSyntax", "Support", "TestSupport"]),
        .testTarget(name: "JavaScriptSyntaxTests", dependencies: ["JavaScriptSyntax", "SourcePositions"]),
        .testTarget(
            name: "JavaScriptLoweringTests", dependencies: ["JavaScriptLowering", "JavaScriptSyntax", "PythonSyntax", "SyntaxTree"]),
        .testTarget(name: "SyntaxTreeTests", dependencies: ["SyntaxTree"]),
        // A toy third language defined and registered by the test target alone (issue 77).
        .testTarget(name: "ThirdLanguageTests", dependencies: ["Languages", "SAST", "SyntaxTree", "TestSupport"]),
        .testTarget(
            name: "SASTTests",
            dependencies: [
                "SAST", "Documents", "DocumentsYAML", "Findings", "JavaScriptLowering", "Languages", "PythonSyntax", "SourcePositions",
                "Support", "SyntaxTree",
                "TemplateSyntax", "TestSupport",
            ]),
        .testTarget(
            name: "SCATests", dependencies: ["SCA", "Documents", "Store", "Support", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(
            name: "AdaptersTests",
            dependencies: ["Adapters", "DAST", "Documents", "ScanCore", "Findings", "Sandbox", "Support", "TestSupport", "Web"],
            exclude: ["Fixtures"]),
        .testTarget(name: "GitTests", dependencies: ["Git", "Support"]),
        .testTarget(name: "DASTTests", dependencies: ["DAST", "Documents", "Findings", "HTTP", "Support", "TestSupport", "Web"]),
        .testTarget(name: "AuditTests", dependencies: ["Audit", "Digest", "Support"]),
        .testTarget(
            name: "FleetTests",
            dependencies: ["Audit", "Autonomy", "Digest", "Fleet", "Heal", "Signals", "Store", "Support", "TestSupport"]),
        .testTarget(
            name: "HealTests",
            dependencies: [
                "Digest", "Heal", "Findings", "Git", "HTTP", "LLM", "Sandbox", "ScanCore", "Signals", "Store", "Support", "TestSupport",
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "AutonomyTests",
            dependencies: ["Audit", "Autonomy", "Digest", "Git", "HTTP", "Heal", "Signals", "Store", "Support", "TestSupport"]
        ),
        // Seeded, bounded mutation of every reader of attacker-controlled input (bench/fuzz.sh goes further).
        .testTarget(
            name: "FuzzTests",
            dependencies: ["Documents", "DocumentsYAML", "Heal", "PythonSyntax", "Sandbox", "SCA", "Signals", "Support", "TestSupport"]),
        .testTarget(
            name: "ScanTests",
            dependencies: ["Scan", "Adapters", "DAST", "Findings", "Languages", "SAST", "ScanCore", "Secrets", "Support", "TestSupport"]),
        // Golden/: exact --help and usage-error text (GoldenCLITests; SENTINEL_UPDATE_GOLDEN=1 rewrites it).
        .testTarget(
            name: "CLITests",
            dependencies: [
                "Audit", "Autonomy", "CLICore", "Digest", "Fleet", "Heal", "SentinelCLI", "Signals", "Store", "Support", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["Golden"]
        ),
    ]
)

// Release builds let the analysis modules' callers inline across module boundaries: the taint and
// search passes read syntax nodes (`PythonSyntax`) in their hottest loops, where an accessor call and
// its retain/release pair per node cost 6-8 % of a scan (bench/sast-speed.sh, measured 2026-11-25).
// Web too: DAST's HTML tokenizer asks its byte classes (HTMLBytes) once a byte, as it did in DAST.
let crossModuleOptimized: Set<String> = [
    "Support", "Documents", "DocumentsYAML", "SourcePositions", "Findings", "SyntaxTree", "PythonSyntax", "JavaScriptSyntax",
    "JavaScriptLowering",
    "TemplateSyntax", "Secrets", "SAST", "ScanCore", "Scan", "Web",
]
for target in package.targets where crossModuleOptimized.contains(target.name) {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]
}

// Release builds reach a concrete generic type's metadata (`[String: String]`, `[sock_filter]`, an
// optional `Result<…>`) through its accessor, called with the arguments' metadata and witness tables,
// instead of demangling the type's name at run time. Demangling costs each process a decode, a
// conformance search through every record in the binary and an instantiation per type the first
// time it is used: 16 % of the instructions a `sandbox run` launcher executes (callgrind, 4.62 M →
// 3.86 M; bench/launch-overhead.sh), for a few KB more code. C targets take no Swift flags.
let cTargets: Set<String> = ["CCurl", "CPostgres", "CSandbox", "CSystem", "sentinel-probe"]
for target in package.targets where [.regular, .executable].contains(target.type) && !cTargets.contains(target.name) {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .unsafeFlags(
                ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release))
        ]
}
