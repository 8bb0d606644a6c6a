import SCA

/// For a dependency bump, what the verification did about the bumped version: whether it was
/// installed in a fresh virtual environment in the sandbox, and which version the verify
/// command's Python saw after the tests (`importlib.metadata.version` in the same environment).
public struct InstalledDependency: Sendable, Hashable, Codable {
    /// The package.
    public var package: String
    /// The version the bump raises it to.
    public var target: String
    /// The version found after the tests, or nil when the package was not importable.
    public var imported: String?
    /// Where it was installed from (`wheel directory /srv/wheels`), nil when no index was given.
    public var index: String?
    /// Time spent building the environment and installing, ms.
    public var installMilliseconds: Int
    /// Why the bumped version was not exercised; nil when the tests ran with `target` installed.
    public var notExercised: String?

    /// The tests ran with the target version installed and imported.
    public var exercised: Bool { notExercised == nil }

    /// The record from what the wrapper printed: `installError` empty when pip succeeded.
    init(package: String, target: String, index: PackageIndex?, installError: String?, imported: String?, milliseconds: Int) {
        self.package = package
        self.target = target
        self.index = index?.description
        self.imported = imported
        installMilliseconds = milliseconds
        let seen = imported.map { "the tests' Python has \(package) \($0)" } ?? "\(package) is not importable"
        if index == nil {
            notExercised = "not exercised: no package index was given (--package-index), so \(target) was not installed; \(seen)"
        } else if let installError, !installError.isEmpty {
            notExercised = "not exercised: installing \(package)==\(target) failed: \(installError)"
        } else if imported.flatMap(PEP440Version.init) != PEP440Version(target) || imported == nil {
            notExercised = "not exercised: \(target) was installed but \(seen)"
        }
    }
}
