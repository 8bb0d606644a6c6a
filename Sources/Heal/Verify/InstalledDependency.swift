import SCA

/// For a dependency bump, what the verification did about the bumped version: whether it was
/// installed in a fresh virtual environment in the sandbox, and which version the verify
/// command's Python saw after the tests (`importlib.metadata.version` in the same environment).
public struct InstalledDependency: Sendable, Hashable, Codable {
    /// The package.
    public var package: String
    /// The version the bump raises it to.
    public var target: String
    /// The version the environment's Python finds after the tests, or nil when the package was
    /// not importable.
    public var imported: String?
    /// What the tests' own processes imported: `version path`, one per distinct copy (from the
    /// environment's `ImportRecorder` hook); empty when none imported the package.
    public var importedByTests: [String] = []
    /// Where it was installed from (`wheel directory /srv/wheels`), nil when no index was given.
    public var index: String?
    /// Time spent building the environment and installing, ms.
    public var installMilliseconds: Int
    /// Why the bumped version was not exercised; nil when the tests ran with `target` installed.
    public var notExercised: String?

    /// The tests ran with the target version installed and imported.
    public var exercised: Bool { notExercised == nil }

    /// The record from what the wrapper printed: `installError` empty when pip succeeded.
    init(
        package: String, target: String, index: PackageIndex?, installError: String?, imported: String?,
        importedByTests: [String] = [], milliseconds: Int
    ) {
        self.package = package
        self.target = target
        self.index = index?.description
        self.imported = imported
        self.importedByTests = importedByTests
        installMilliseconds = milliseconds
        let wanted = PEP440Version(target)
        let other = importedByTests.first { line in
            PEP440Version(String(line.prefix { $0 != " " })) != wanted
        }
        let seen = imported.map { "the tests' Python has \(package) \($0)" } ?? "\(package) is not importable"
        if index == nil {
            notExercised = "not exercised: no package index was given (--package-index), so \(target) was not installed; \(seen)"
        } else if let installError, !installError.isEmpty {
            notExercised = "not exercised: installing \(package)==\(target) failed: \(installError)"
        } else if imported.flatMap(PEP440Version.init) != wanted || imported == nil {
            notExercised = "not exercised: \(target) was installed but \(seen)"
        } else if let other {
            notExercised = "not exercised: \(target) was installed but the tests imported \(package) \(other)"
        } else if importedByTests.isEmpty {
            notExercised = "not exercised: \(target) was installed but no process of the tests imported \(package) from it"
        }
    }
}
