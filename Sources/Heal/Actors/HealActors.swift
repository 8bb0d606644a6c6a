/// The actors `heal` uses, in the order they are tried.
public enum HealActors {
    /// Every actor available: dependency bumps, rule fixes, program repair, and the LLM actor
    /// when `SENTINEL_LLM_URL` and `SENTINEL_LLM_MODEL` configure one.
    /// `osvDatabase` is the index bumps are judged against (every advisory of the package).
    public static func standard(environment: [String: String], osvDatabase: String? = nil) throws -> [any HealActor] {
        var actors: [any HealActor] = [DependencyBumpActor(databasePath: osvDatabase), RuleFixActor(), RepairActor()]
        if let llm = try LLMActor.fromEnvironment(environment) { actors.append(llm) }
        return actors
    }

    /// The coverage tracer fault localisation loads into pytest.
    public static var tracer: (module: String, source: String)? {
        (CoverageTracer.moduleName, CoverageTracer.pluginSource)
    }
}
