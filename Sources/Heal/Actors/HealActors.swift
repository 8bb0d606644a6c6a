/// The actors `heal` uses, in the order they are tried.
public enum HealActors {
    /// Every actor available: dependency bumps, rule fixes, program repair, and the LLM actor
    /// when `SENTINEL_LLM_URL` and `SENTINEL_LLM_MODEL` configure one.
    public static func standard(environment: [String: String]) throws -> [any HealActor] {
        [DependencyBumpActor()]
    }

    /// The coverage tracer fault localisation loads into pytest, when program repair is built in.
    public static var tracer: (directory: String, module: String, source: String)? { nil }
}
