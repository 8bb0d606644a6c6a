/// What a file is to the secrets scan, by its path: where a `password = "..."` is a credential,
/// a fixture, a sentence of the UI or a package's name (issue 55: on real code, most committed
/// "passwords" were documentation examples, CI throw-aways, translations and lockfile entries).
enum SecretFileKind: Equatable {
    /// Code and configuration that runs: everything is reported at the rule's severity.
    case source
    /// Tests and CI definitions, example and sample configuration: a password or key there is a
    /// fixture by convention, reported at low severity (an issued token keeps its own).
    case fixture
    /// Documentation: an example, reported at low severity (an issued token keeps its own).
    case documentation
    /// UI message catalogues: `"password": "Mot de passe"` is a label; no assignment is a secret.
    case translations
    /// Lockfiles: `"jsonwebtoken": "npm:…"` is a package; no assignment is a secret.
    case lockfile

    /// The kind of `path` (relative to the scanned root, `/`-separated).
    static func of(_ path: String) -> SecretFileKind {
        let lower = path.lowercased()
        let components = lower.split(separator: "/").map(String.init)
        let name = components.last ?? lower
        let directories = Set(components.dropLast())
        if lockfiles.contains(name) || name.hasSuffix(".lock") { return .lockfile }
        if name.hasSuffix(".po") || name.hasSuffix(".pot") || !directories.isDisjoint(with: translationDirectories) {
            return .translations
        }
        if !directories.isDisjoint(with: fixtureDirectories) || isFixtureName(name, path: lower) { return .fixture }
        if !directories.isDisjoint(with: documentationDirectories)
            || documentationExtensions.contains(where: { name.hasSuffix($0) })
        {
            return .documentation
        }
        return .source
    }

    static let lockfiles: Set<String> = [
        "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock", "poetry.lock", "pipfile.lock",
        "uv.lock", "pdm.lock", "cargo.lock", "gemfile.lock", "composer.lock", "go.sum", "package.resolved",
    ]
    static let translationDirectories: Set<String> = ["locale", "locales", "i18n", "l10n", "translations", "lang", "langs"]
    static let fixtureDirectories: Set<String> = [
        "test", "tests", "testing", "__tests__", "__mocks__", "spec", "specs", "fixtures", "e2e", "cypress", "playwright",
        ".github", ".gitlab", ".circleci", ".buildkite", "ci", "examples", "example", "samples", "sample",
    ]
    static let documentationDirectories: Set<String> = ["docs", "doc", "documentation", "website"]
    static let documentationExtensions = [".md", ".mdx", ".rst", ".adoc"]

    /// Test files by the naming conventions of Python and JavaScript test runners, CI files,
    /// and example configuration (`.env.example`, `settings.sample.py`, `.env.test`).
    private static func isFixtureName(_ name: String, path: String) -> Bool {
        let stem = name.split(separator: ".").first.map(String.init) ?? name
        if stem.hasPrefix("test_") || stem.hasSuffix("_test") || stem.hasSuffix("_tests") || stem == "conftest" { return true }
        for marker in [".test.", ".spec.", ".e2e.", ".stories.", ".example", ".sample", ".dist", ".template", ".env.test"]
        where name.contains(marker) {
            return true
        }
        if name == ".gitlab-ci.yml" || name == "jenkinsfile" || name == ".travis.yml" || name == "azure-pipelines.yml" {
            return true
        }
        return (name.hasPrefix("docker-compose") || name.hasPrefix("compose")) && (path.contains("test") || path.contains("ci"))
    }
}
