import Digest
import Git
import Signals
import Support

/// The kinds of actor, cheapest and most certain first; also the action classes the autonomy
/// policy speaks of.
public enum ActorKind: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Raise a vulnerable dependency to its smallest fixed version.
    case dependencyBump = "dependency-bump"
    /// Apply a SAST rule's `fix:` template.
    case ruleFix = "rule-fix"
    /// Program repair without a model: fault localisation and repair templates.
    case logicRepair = "logic-repair"
    /// A patch written by a language model.
    case llmPatch = "llm-patch"

    /// Position in the order actors are tried.
    public var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    /// Orders by `rank`.
    public static func < (lhs: ActorKind, rhs: ActorKind) -> Bool { lhs.rank < rhs.rank }
}

/// One candidate change an actor puts forward, before anything has run it.
public struct Proposal: Sendable, Hashable {
    /// Who proposed it.
    public var actor: ActorKind
    /// The files it changes, with their content before and after.
    public var changes: [FileChange]
    /// One line for people: "line 12: `<` → `<=`", "pyyaml 5.3.1 → 5.4".
    public var description: String
    /// The actor's own ordering (higher first): suspiciousness × template prior, and so on.
    public var score: Double
    /// The repair template or strategy, for memory (`comparison-swap`, `fix-template`).
    public var strategy: String
    /// Things the evidence must say about it ("hashes for pyyaml not recomputed").
    public var notes: [String]
    /// Set when the actor produced something that cannot be tried (a model's reply that does not
    /// apply): the loop records it as refused with this lesson, without running anything.
    public var unusable: String?
    /// For a dependency bump: the version the dependency is raised to (branch and PR titles name it).
    public var targetVersion: String? = nil
    /// For a dependency bump: the advisories the version clears and those that stay open.
    public var bump: BumpPlan? = nil
    /// The part of the code it changes (`file:line` for a template's candidate): the loop gives
    /// each region a time budget per pass (``RegionSchedule``); nil: never deferred.
    public var region: String? = nil
    /// A model's own explanation of its change, quoted as its words in a pull request.
    public var rationale: String? = nil

    /// A proposal; see the properties.
    public init(
        actor: ActorKind, changes: [FileChange], description: String, score: Double = 1, strategy: String = "",
        notes: [String] = []
    ) {
        self.actor = actor
        self.changes = changes
        self.description = description
        self.score = score
        self.strategy = strategy
        self.notes = notes
    }

    /// The change itself: a SHA-256 over each changed file's path and new content, so the same
    /// change has the same key whichever actor made it and however its diff is laid out.
    public var changeKey: String {
        SHA256.hex(
            changes.sorted { $0.path < $1.path }.map { "\($0.path)\u{0}\($0.after ?? "\u{1}")" }.joined(separator: "\u{0}"))
    }

    /// Characters added and removed over every file: "the smallest plausible patch" compares this.
    public var size: Int {
        changes.reduce(0) { total, change in
            total + EditSize.characters(from: change.before ?? "", to: change.after ?? "")
        }
    }
}

/// What an actor knows when it is asked for proposals.
public struct ActorContext: Sendable {
    /// The signal being worked on.
    public var signal: Signal
    /// The repository snapshot and its files.
    public var workspace: HealWorkspace
    /// The verify command's run on the unchanged tree.
    public var baseline: Verification
    /// Every attempt so far (all actors), oldest first, each with its lesson.
    public var attempts: [Attempt]
    /// Past outcomes of similar signals, verified fixes first.
    public var memory: [MemoryRecord]
    /// Runs the verify command on a tree with the coverage tracer (for fault localisation).
    public var traceRun: @Sendable (String) throws -> (Verification, String)
    /// The code under repair's most suspicious lines, most first (empty without a traced run).
    public var suspicious: [SuspiciousLine]
    /// What the failing tests compared in the baseline run: expected and printed values.
    public var compared: [ComparedValues]
    /// Seconds left of the heal's time (`--max-minutes`) when the actor was asked: every network
    /// exchange an actor makes ends within it. Nil: no limit.
    public var secondsLeft: Double?

    /// A context; see the properties.
    public init(
        signal: Signal, workspace: HealWorkspace, baseline: Verification, attempts: [Attempt] = [],
        memory: [MemoryRecord] = [], traceRun: @escaping @Sendable (String) throws -> (Verification, String),
        suspicious: [SuspiciousLine] = [], compared: [ComparedValues] = []
    ) {
        self.suspicious = suspicious
        self.compared = compared
        self.signal = signal
        self.workspace = workspace
        self.baseline = baseline
        self.attempts = attempts
        self.memory = memory
        self.traceRun = traceRun
    }
}

/// One way of proposing fixes. The loop asks each actor that applies to the signal, in
/// `ActorKind` order, for proposals until one is verified or the budget ends; an actor that
/// learns from lessons (the LLM) is asked again after each failed round, the others return
/// everything on the first call and nothing after.
public protocol HealActor: Sendable {
    /// Which kind this is.
    var kind: ActorKind { get }
    /// Whether it can do anything for `signal`.
    func applies(to signal: Signal) -> Bool
    /// Proposals for the next round, best first; empty when it has nothing (more) to offer.
    /// `round` counts from 1. A throw ends this actor's turn and is reported, not fatal.
    func propose(_ context: ActorContext, round: Int) throws -> [Proposal]
}

/// Sizes of edits in characters, by common prefix and suffix (cheap and enough to rank patches).
enum EditSize {
    static func characters(from before: String, to after: String) -> Int {
        let a = Array(before.utf8)
        let b = Array(after.utf8)
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
            suffix += 1
        }
        return (a.count - prefix - suffix) + (b.count - prefix - suffix)
    }
}
