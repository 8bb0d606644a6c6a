/// The version `sentinel --version` prints.
public enum SentinelVersion {
    /// The release version string (semantic versioning).
    public static let current = "0.1.0"
}
