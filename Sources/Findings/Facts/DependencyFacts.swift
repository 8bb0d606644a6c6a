/// The facts of a vulnerable dependency (SCA): what is installed, what fixes it, how it got there.
/// Every field is optional: a report read back may carry only some of them.
public struct DependencyFacts: Sendable, Hashable {
    /// The package name as the manifest spells it.
    public var package: String?
    /// The version installed (locked or pinned).
    public var installedVersion: String?
    /// The package index (`PyPI`).
    public var ecosystem: String?
    /// The advisory's affected range that matched, as text.
    public var affectedRange: String?
    /// Every version the advisory names as fixed (empty when none is published).
    public var fixedVersions: [String]?
    /// The smallest fixed version above the installed one.
    public var smallestFixedVersion: String?
    /// Whether `smallestFixedVersion` keeps the installed major version.
    public var fixIsSameMajor: Bool?
    /// The advisory's aliases (`CVE-...`).
    public var aliases: [String]?
    /// Other advisories for the same problem folded into this finding.
    public var sameAs: [String]?
    /// Whether the manifest names the package itself (not a transitive dependency).
    public var isDirect: Bool?
    /// The chain from a direct dependency down to this package.
    public var path: [String]?
    /// The CVSS base score the severity came from.
    public var cvssScore: Double?
    /// The CVSS vector the score came from.
    public var cvssVector: String?
    /// Where the severity came from (`cvss`, `ghsa`, ...).
    public var severitySource: String?

    /// Dependency facts; leave out what is unknown.
    public init(
        package: String? = nil, installedVersion: String? = nil, ecosystem: String? = nil, affectedRange: String? = nil,
        fixedVersions: [String]? = nil, smallestFixedVersion: String? = nil, fixIsSameMajor: Bool? = nil,
        aliases: [String]? = nil, sameAs: [String]? = nil, isDirect: Bool? = nil, path: [String]? = nil,
        cvssScore: Double? = nil, cvssVector: String? = nil, severitySource: String? = nil
    ) {
        self.package = package
        self.installedVersion = installedVersion
        self.ecosystem = ecosystem
        self.affectedRange = affectedRange
        self.fixedVersions = fixedVersions
        self.smallestFixedVersion = smallestFixedVersion
        self.fixIsSameMajor = fixIsSameMajor
        self.aliases = aliases
        self.sameAs = sameAs
        self.isDirect = isDirect
        self.path = path
        self.cvssScore = cvssScore
        self.cvssVector = cvssVector
        self.severitySource = severitySource
    }
}
