/// The actors `heal` uses, in the order they are tried.
public enum HealActors {
    /// Every actor available: dependency bumps, rule fixes, program repair, and the LLM actor
    /// when `SENTINEL_LLM_URL` and `SENTINEL_LLM_MODEL` configure one.
    public static func standard(environment: [String: String]) throws -> [any HealActor] {
        var actors: [any HealActor] = [DependencyBumpActor()]
        if let llm = try LLMActor.fromEnvironment(environment) { actors.append(llm) }
        return actors
    }

    /// The coverage tracer fault localisation loads into pytest, when program repair is built in.
    public static var tracer: (directory: String, module: String, source: String)? { nil }
}
