import Foundation

/// One version a vulnerable package could be raised to, judged against every advisory of the
/// package in the database (not only the one a report named).
public struct RemedyOption: Sendable, Hashable {
    /// The version.
    public var version: String
    /// Advisories that affect the installed version and not this one, sorted.
    public var clears: [String]
    /// Advisories that still affect this version, sorted.
    public var stillOpen: [String]
    /// Whether the version keeps the installed major version.
    public var sameMajor: Bool
}

/// The versions a package can be raised to, best first: those leaving the fewest advisories
/// open, then the smallest. So the first clears every advisory when any known version does, and
/// it stays in the installed major version when one there does.
public struct PackageRemedy: Sendable, Hashable {
    /// The package as the caller spelled it.
    public var package: String
    /// The installed version.
    public var installed: String
    /// Advisories that affect the installed version, sorted.
    public var advisories: [String]
    /// Candidate versions (the advisories' fixed versions above the installed one), best first.
    public var options: [RemedyOption]
}

extension OSVDatabase {
    /// The most versions a remedy evaluates; fixed versions beyond it are left out.
    static let remedyVersionLimit = 64

    /// Every fixed version of every advisory affecting `package` at `installed` (and of the
    /// advisories those versions are affected by in turn), each looked up again so its open
    /// advisories are known: the smallest version that clears the package, not one advisory.
    /// PyPI only (versions compare by PEP 440), the ecosystem the dependency-bump actor serves.
    public func pypiRemedy(package: String, installed: String) throws -> PackageRemedy {
        let scheme = PEP440Scheme()
        func lookup(_ version: String) throws -> [VulnerabilityMatch] {
            try self.lookup(Dependency(ecosystem: .pypi, name: package, version: version, file: "", line: 0))
        }
        let current = try lookup(installed)
        let base = PEP440Version(installed)
        var pending = Set(current.flatMap(\.fixedVersions))
        var judged: [String: [String]] = [:]
        while judged.count < Self.remedyVersionLimit {
            let ordered = pending.compactMap { text in PEP440Version(text).map { (text, $0) } }.sorted { $0.1 < $1.1 }
            guard let next = ordered.first else { break }
            pending.remove(next.0)
            guard let base, next.1 > base, judged[next.0] == nil else { continue }
            let matches = try lookup(next.0)
            judged[next.0] = Array(Set(matches.map(\.advisory.id))).sorted()
            for version in matches.flatMap(\.fixedVersions) where judged[version] == nil { pending.insert(version) }
        }
        let affecting = Set(current.map(\.advisory.id))
        let major = base.map(scheme.majorKey)
        let options = judged.compactMap { version, open -> (RemedyOption, PEP440Version)? in
            guard let parsed = PEP440Version(version) else { return nil }
            let option = RemedyOption(
                version: version, clears: affecting.subtracting(open).sorted(), stillOpen: open,
                sameMajor: scheme.majorKey(parsed) == major)
            return (option, parsed)
        }.sorted { a, b in
            a.0.stillOpen.count != b.0.stillOpen.count ? a.0.stillOpen.count < b.0.stillOpen.count : a.1 < b.1
        }.map(\.0)
        return PackageRemedy(package: package, installed: installed, advisories: affecting.sorted(), options: options)
    }
}
