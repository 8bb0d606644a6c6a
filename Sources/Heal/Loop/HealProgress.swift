/// Progress events for a terminal.
public enum HealProgress: Sendable {
    /// The baseline run of the verify command started.
    case baseline
    /// `actor` is asked for proposals.
    case proposing(ActorKind)
    /// Candidates `first...last` of at most `limit` are being verified.
    case verifying(first: Int, last: Int, limit: Int, actor: ActorKind)
}
