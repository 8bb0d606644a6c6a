import Foundation
import Support

/// Where the shipped rules live: `$SENTINEL_RULES` (colon-separated), else the first shipped
/// directory (beside the installed binary, the checkout it was built in, the installed locations).
public enum RuleLocations {
    /// The rule directories to load: `$SENTINEL_RULES` split on `:`, else the shipped one, else none.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        if let configured = environment["SENTINEL_RULES"] {
            return configured.split(separator: ":").map(String.init)
        }
        return DataDirectory.directory(named: "rules", containing: "python").map { [$0] } ?? []
    }
}
