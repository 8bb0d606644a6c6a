/// One vulnerability of one package version, as the advisories that describe it: databases
/// publish the same issue under several ids (a PYSEC record and the GHSA record it aliases, both
/// naming the CVE), and a user expects it once, as OSV-Scanner and Trivy show it.
public struct AliasGroup: Sendable, Hashable {
    /// The match reported: the advisory whose severity is highest (the severity), at
    /// equal severity the one scored by its own CVSS vector, then through an alias, then the
    /// earliest id.
    public var primary: VulnerabilityMatch
    /// The other advisories' ids for the same issue, sorted.
    public var otherIDs: [String]

    /// Groups `matches` (of one dependency) whose advisories name each other or share an alias
    /// (a CVE id); order follows the first match of each group.
    public static func group(_ matches: [VulnerabilityMatch]) -> [AliasGroup] {
        // Union-find over the matches, joined through every id and alias they carry.
        var parent = Array(matches.indices)
        func root(_ index: Int) -> Int {
            var index = index
            while parent[index] != index {
                parent[index] = parent[parent[index]]
                index = parent[index]
            }
            return index
        }
        var owner: [String: Int] = [:]
        for (index, match) in matches.enumerated() {
            for name in [match.advisory.id] + match.advisory.aliases {
                if let other = owner[name] {
                    parent[root(index)] = root(other)
                } else {
                    owner[name] = index
                }
            }
        }
        var members: [Int: [Int]] = [:]
        var order: [Int] = []
        for index in matches.indices {
            let group = root(index)
            if members[group] == nil { order.append(group) }
            members[group, default: []].append(index)
        }
        return order.map { group in
            let candidates = members[group]!.map { matches[$0] }
            let primary = candidates.min { better($0, than: $1) }!
            let others = candidates.map(\.advisory.id).filter { $0 != primary.advisory.id }
            return AliasGroup(primary: primary, otherIDs: Array(Set(others)).sorted())
        }
    }

    /// The record whose severity is highest (`SeverityAssessment.outranks`: the issue is as
    /// severe as its most severe record), then one scored by its own CVSS vector over one scored
    /// through an alias; ties by id.
    private static func better(_ a: VulnerabilityMatch, than b: VulnerabilityMatch) -> Bool {
        let (severityA, severityB) = (a.advisory.severity, b.advisory.severity)
        if severityA.outranks(severityB) || severityB.outranks(severityA) { return severityA.outranks(severityB) }
        let (rankA, rankB) = (rank(severityA), rank(severityB))
        if rankA != rankB { return rankA < rankB }
        return a.advisory.id < b.advisory.id
    }

    private static func rank(_ severity: SeverityAssessment) -> Int {
        guard severity.score != nil else { return 2 }
        return severity.source.hasPrefix("alias:") ? 1 : 0
    }
}
