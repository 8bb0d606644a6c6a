/// What a file is to the secrets scan, by its path: where a `password = "..."` is a credential,
/// a fixture, a sentence of the UI or a package's name (issue 55: on real code, most committed
/// "passwords" were documentation examples, CI throw-aways, translations and lockfile entries).
/// ``FindingPlacement`` places the code rules' findings by the same kinds.
package enum SecretFileKind: Equatable {
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

    /// Where a finding of this kind of file is, as its message says it (`in a test, CI or
    /// example file`); nil for files whose findings are not placed (code, catalogues, lockfiles).
    package var place: String? {
        switch self {
        case .fixture: "in a test, CI or example file"
        case .documentation: "in documentation"
        case .source, .translations, .lockfile: nil
        }
    }

    /// The kind of `path` (relative to the scanned root, `/`-separated).
    package static func of(_ path: String) -> SecretFileKind {
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
    /// Whether `path` is a CI definition or lies in a CI directory (`.github/workflows/x.yml`,
    /// `ci/build.py`, `.gitlab-ci.yml`): code that runs on every change.
    package static func isContinuousIntegration(_ path: String) -> Bool {
        let components = path.lowercased().split(separator: "/").map(String.init)
        let name = components.last ?? ""
        return !Set(components.dropLast()).isDisjoint(with: ciDirectories) || ciFiles.contains(name)
    }

    static let ciDirectories: Set<String> = [".github", ".gitlab", ".circleci", ".buildkite", "ci"]
    static let ciFiles: Set<String> = [".gitlab-ci.yml", "jenkinsfile", ".travis.yml", "azure-pipelines.yml"]

    /// Whether `path` is a database schema migration: a file under a `migrations` directory
    /// (Django, Flask-Migrate, Alembic's `migrations/versions`) or Alembic's `alembic/versions`.
    package static func isMigration(_ path: String) -> Bool {
        let directories = path.lowercased().split(separator: "/").dropLast()
        if directories.contains("migrations") { return true }
        guard let versions = directories.lastIndex(of: "versions"), versions > directories.startIndex else { return false }
        return directories[directories.index(before: versions)] == "alembic"
    }

    /// Words of a file's stem that make it a test's: `test_views`, `configuration_testing`.
    static let testWords: Set<String> = ["test", "tests", "testing", "smoketest"]
    static let documentationDirectories: Set<String> = ["docs", "doc", "documentation", "website"]
    static let documentationExtensions = [".md", ".mdx", ".rst", ".adoc"]

    /// Test files by the naming conventions of Python and JavaScript test runners, CI files,
    /// and example configuration (`.env.example`, `settings.sample.py`, `.env.test`).
    private static func isFixtureName(_ name: String, path: String) -> Bool {
        let stem = name.split(separator: ".").first.map(String.init) ?? name
        // `test_x`, `x_test`, `settings_testing`, `smoketest_configuration`: a word of the stem.
        let words = stem.split(whereSeparator: { $0 == "_" || $0 == "-" })
        if stem == "conftest" || words.contains(where: { testWords.contains(String($0)) }) { return true }
        for marker in [".test.", ".spec.", ".e2e.", ".stories.", ".example", ".sample", ".dist", ".template", ".env.test"]
        where name.utf8.firstRange(of: marker.utf8) != nil {
            return true
        }
        if ciFiles.contains(name) { return true }
        return (name.hasPrefix("docker-compose") || name.hasPrefix("compose")) && (path.contains("test") || path.contains("ci"))
    }
}
