import Foundation

/// Reads Sentinel's SARIF log (one run, each engine a `tool.extensions` entry) one engine at a
/// time, so a test can ask what the native engine, osv or bandit reported.
public enum SARIFEngines {
    /// The log's only run.
    public static func run(_ log: [String: Any]) -> [String: Any]? {
        (log["runs"] as? [[String: Any]])?.first
    }

    /// The engines' names, in `tool.extensions` order.
    public static func names(_ log: [String: Any]) -> [String] {
        extensions(log).compactMap { $0["name"] as? String }
    }

    /// One engine as a run of its own: `tool.driver` is its extension, `results` those whose
    /// `rule.toolComponent.index` points at it, `invocations` those whose `properties.tool` names it.
    public static func view(_ log: [String: Any], tool: String) -> [String: Any]? {
        guard let run = run(log), let index = names(log).firstIndex(of: tool) else { return nil }
        let results = (run["results"] as? [[String: Any]] ?? []).filter {
            (($0["rule"] as? [String: Any])?["toolComponent"] as? [String: Any])?["index"] as? Int == index
        }
        let invocations = (run["invocations"] as? [[String: Any]] ?? []).filter {
            ($0["properties"] as? [String: Any])?["tool"] as? String == tool
        }
        var view: [String: Any] = ["tool": ["driver": extensions(log)[index]], "results": results]
        if !invocations.isEmpty { view["invocations"] = invocations }
        for key in ["originalUriBaseIds", "columnKind"] { view[key] = run[key] }
        return view
    }

    private static func extensions(_ log: [String: Any]) -> [[String: Any]] {
        ((run(log)?["tool"] as? [String: Any])?["extensions"] as? [[String: Any]]) ?? []
    }
}
