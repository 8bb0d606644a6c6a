/// Progress events for a terminal.
public enum HealProgress: Sendable {
    /// The baseline run of the verify command started.
    case baseline
    /// The scanner that reported the finding started on the unchanged tree (what a candidate's
    /// re-scan is compared with).
    case rescanning(tool: String)
    /// The verify command started on the unchanged tree under the coverage tracer.
    case tracing
    /// `actor` is asked for proposals.
    case proposing(ActorKind)
    /// Candidates `first...last` of at most `limit` are being verified.
    case verifying(first: Int, last: Int, limit: Int, actor: ActorKind)
}
