extension Policy {
    /// Paths no policy can open to automatic change: repository metadata, CI definitions (a
    /// changed workflow runs with the repository's secrets), key material, and `.sentinel/`
    /// itself (the policy and the STOP file). Lockfiles are protected by ecosystem, see `lockfiles`.
    public static let builtInProtectedPatterns = [
        ".git/**", ".github/**", ".gitlab-ci.yml", ".gitlab/**", ".circleci/**", ".travis.yml", "Jenkinsfile",
        "azure-pipelines.yml", "bitbucket-pipelines.yml", ".buildkite/**", "**/*.pem", "**/*.key", "**/id_rsa*",
        ".sentinel/**",
    ]

    /// `builtInProtectedPatterns`, compiled.
    public static let builtInProtected: [PathGlob] = builtInProtectedPatterns.map(PathGlob.init(constant:))

    /// Lockfile names by OSV ecosystem name. A lockfile of another ecosystem than the
    /// candidate's is protected (matched by file name at any depth): fixing a PyPI package has
    /// no business rewriting `package-lock.json`.
    public static let lockfiles: [String: [String]] = [
        "npm": ["package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock"],
        "Go": ["go.sum"],
        "crates.io": ["Cargo.lock"],
        "RubyGems": ["Gemfile.lock"],
        "Packagist": ["composer.lock"],
        "Maven": ["gradle.lockfile"],
        "NuGet": ["packages.lock.json"],
        "Pub": ["pubspec.lock"],
        "PyPI": ["poetry.lock", "Pipfile.lock", "pdm.lock", "uv.lock"],
    ]

    /// The lockfile globs protected for a candidate of `ecosystem` (compared without case);
    /// every lockfile when `ecosystem` is nil or unknown.
    public static func protectedLockfiles(for ecosystem: String?) -> [PathGlob] {
        let own = ecosystem?.lowercased()
        return lockfiles.filter { $0.key.lowercased() != own }.values.joined().sorted().map(PathGlob.init(constant:))
    }
}
