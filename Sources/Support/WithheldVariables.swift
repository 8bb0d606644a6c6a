/// Variables of root's environment that never reach a process Sentinel starts on its behalf (a
/// fleet job, the unprivileged analysis), whatever their names: one list, so that a setting
/// added to one place is withheld everywhere.
public enum WithheldVariables {
    /// The queue database's settings: only the process that holds the queue connects to it.
    public static let database: Set<String> = ["SENTINEL_DATABASE_URL", "PGPASSWORD", "PGPASSFILE", "PGSERVICEFILE"]
    /// Agents and files that hold or reach keys (a process given the file could read the key).
    public static let keyAccess: Set<String> = [
        "SSH_AUTH_SOCK", "GPG_AGENT_INFO", "SENTINEL_LLM_KEY_FILE", "SENTINEL_MEMORY_KEY_FILE", "GOOGLE_APPLICATION_CREDENTIALS",
        "AWS_SHARED_CREDENTIALS_FILE", "DOCKER_AUTH_CONFIG", "NETRC", "GIT_ASKPASS", "SSH_ASKPASS",
    ]
}
