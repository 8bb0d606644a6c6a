/// Reduces the caller's environment to a profile's allow-list; everything else is
/// dropped, so tokens and keys in the caller's environment never reach the payload.
public enum EnvironmentFilter {
    /// Returns `NAME=value` strings, sorted by name.
    public static func apply(
        _ policy: Profile.Environment, caller: [String: String],
        extra: [String: String] = [:]
    ) -> [String] {
        var result: [String: String] = [:]
        for (name, value) in caller where allows(policy.allow, name) {
            result[name] = value
        }
        for (name, value) in policy.set { result[name] = value }
        for (name, value) in extra { result[name] = value }
        return result.keys.sorted().compactMap { name in
            guard let value = result[name], !name.contains("="), !name.contains("\0"), !value.contains("\0") else {
                return nil
            }
            return "\(name)=\(value)"
        }
    }

    static func allows(_ patterns: [String], _ name: String) -> Bool {
        patterns.contains { pattern in
            if pattern.hasSuffix("*") { return name.hasPrefix(pattern.dropLast()) }
            return pattern == name
        }
    }
}
