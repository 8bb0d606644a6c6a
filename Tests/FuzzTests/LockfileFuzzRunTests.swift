import SCA
import Support
import Testing

/// Every lockfile format the SCA reads, on mutants of its own fixtures: a result or a
/// `SentinelError`, never a trap; each version read is then parsed by its ecosystem's scheme.
@Suite struct LockfileFuzzRunTests {
    static let dictionary = [
        "==", "===", ">=", "~=", "@", "\"", "'", ":", "=", ",", "\n", "  ", "    ", "[[package]]", "name = ",
        "version = ", "{", "}", "[", "]", "#", "-r ", "-c ", "--hash=sha256:", "; python_version<'3'", "\\\n",
        "resolved", "integrity", "dependencies:", "specs:", "GEM", "PATH", "/v1.2.3", "v0.0.0-2024", "npm:",
        "lockfileVersion", "packages", "node_modules/", "1.0.0-rc.1+b", "999999999999999999999",
        // Readers changed by hostile inputs round 3: resolutions, tarballs, categories, quoted includes.
        "resolution: ", "@patch:", "npm%3A", "https://registry.npmjs.org/a/-/a-1.0.0.tgz", "/-/", "%40s%2Fn", "\"_meta\"",
        "\"docs\": {", "-r \"a b.txt\"", "\\ ",
    ]

    /// (fixture folder, file-name filter, parser) for every format.
    static let formats: [(String, @Sendable (String) -> Bool, any LockfileParser)] = [
        ("requirements", { $0.hasSuffix(".txt") || $0.hasSuffix(".in") }, RequirementsParser(loader: { _ in [] })),
        ("pipenv", { $0 == "Pipfile.lock" }, PipfileLockParser()), ("poetry", { $0 == "poetry.lock" }, PoetryLockParser()),
        ("uv", { $0 == "uv.lock" }, UVLockParser()), ("pdm", { $0 == "pdm.lock" }, PDMLockParser()),
        ("cargo", { $0.hasSuffix(".lock") }, CargoLockParser()), ("go", { $0 == "go.mod" }, GoModParser()),
        ("go", { $0 == "go.sum" }, GoSumParser()), ("npm", { $0.hasPrefix("package-lock") }, PackageLockParser()),
        ("yarn", { $0.hasSuffix(".lock") }, YarnLockParser()), ("pnpm", { $0.hasSuffix(".yaml") }, PnpmLockParser()),
        ("bun", { $0 == "bun.lock" }, BunLockParser()),
        ("ruby", { $0 == "Gemfile.lock" }, GemfileLockParser()), ("composer", { $0 == "composer.lock" }, ComposerLockParser()),
        ("swiftpm", { $0.hasSuffix(".resolved") }, PackageResolvedParser()),
    ]

    @Test(arguments: formats.indices)
    func mutatedLockfiles(index: Int) throws {
        let (folder, keep, parser) = Self.formats[index]
        let seeds = FuzzSeeds.files("SCATests/Fixtures/lockfiles/\(folder)", keep: keep)
        try #require(!seeds.isEmpty, "no fixture for \(type(of: parser).format)")
        let problems = fuzz(seeds: seeds, dictionary: Self.dictionary, seed: UInt64(index) + 1, iterations: 120) { bytes in
            contractBroken(typed: { $0 is SentinelError }) {
                for dependency in try parser.parse(bytes, file: "fuzz").dependencies {
                    guard let version = dependency.version else { continue }
                    _ = dependency.ecosystem.versionScheme.compare(version, "1.0")
                    _ = dependency.ecosystem.versionScheme.equalityKey(of: version)
                }
            }
        }
        #expect(problems.isEmpty, "\(type(of: parser).format): \(problems)")
    }
}
