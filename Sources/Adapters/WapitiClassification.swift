import Documents
import Findings

/// A category's entry in the report's `classifications` (`desc`, `sol`, `ref` as title → URL),
/// with the CWE ids Sentinel gives the category.
struct WapitiClassification {
    /// What the problem is (bounded).
    var description: String
    /// How to fix it (bounded).
    var solution: String
    /// The http(s) reference URLs, at most 10.
    var references: [String]
    /// The category's CWE ids: Sentinel's table, else those the reference titles name.
    var cwe: [Int]

    /// The classification of `category` in `classifications` (empty when missing).
    init(category: String, classifications: DocumentNode?) {
        let node = classifications?[category]
        description = ToolText.flattened(String((node?["desc"]?.string ?? "").prefix(4000)))
        solution = ToolText.flattened(String((node?["sol"]?.string ?? "").prefix(4000)))
        let refs = node?["ref"]?.members ?? []
        references = refs.compactMap { member -> String? in
            guard let link = member.value.string, link.count <= 500 else { return nil }
            let lower = link.lowercased()
            return lower.hasPrefix("https://") || lower.hasPrefix("http://") ? link : nil
        }.prefix(10).map { $0 }
        cwe =
            WapitiCategories.cwe[category.lowercased()]
            ?? ToolText.cweIds(refs.prefix(20).map(\.key).filter { $0.uppercased().contains("CWE-") })
    }

    /// The rule descriptor for `category`, given the first finding of it.
    func descriptor(category: String, finding: Finding) -> RuleDescriptor {
        let name = ToolText.flattened(category)
        return RuleDescriptor(
            id: finding.ruleId, tool: ToolName.wapiti, name: name, shortDescription: name,
            fullDescription: description.isEmpty ? nil : description, help: solution.isEmpty ? nil : solution,
            helpURI: references.first, defaultSeverity: finding.severity, cwe: cwe, tags: ["wapiti", "dast"])
    }
}
