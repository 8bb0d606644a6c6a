import Dispatch

/// Budget and bookkeeping across signals.
struct LoopState {
    let request: HealRequest
    let deadline: UInt64
    /// The repository's identity in memory (``HealRequest/repositoryID``).
    let repository: String
    var attempts: [Attempt] = []
    var notes: [String] = []
    var tried = Set<String>()
    /// Changes judged (``HealLoop/patchKey(_:)``): proposed is `tried`, run or refused is this.
    var judged = Set<String>()
    var verificationMilliseconds = 0
    /// Where the time went, stage by stage.
    var clock = HealStageClock()
    var overheadMilliseconds = 0
    var exhaustedBy = HealStopReason.maxAttempts
    /// Proposals not judged because they failed on the same signal in an earlier heal.
    var skippedAsFailedBefore = 0
    /// The files the signal's tests are made of (from the traced baseline run).
    var oracle = OracleFiles()
    /// The files the project's configuration calls tests (read from the snapshot once).
    var declared = DeclaredTests()
    /// The most suspicious lines of the code under repair (from the same run), most first.
    var suspicious: [SuspiciousLine] = []
    /// Every file of the code under repair the failing tests ran (from the same run).
    var failureFiles = Set<String>()
    /// The command's Python found the tracer only as a module at the tree's root.
    var tracerInTree = false
    /// Candidates are screened on the failing tests first (``TestSelection``) until a screen
    /// shows it cannot select them (the whole run saw the tests the screen did not).
    var screening = true
    /// Each test's seconds in the traced run of the unchanged tree: screens run the quickest first.
    var testSeconds: [String: Double] = [:]

    init(request: HealRequest, deadline: UInt64, repository: String) {
        self.request = request
        self.deadline = deadline
        self.repository = repository
    }

    /// Seconds left, or nil when the time or the attempts are spent.
    var budgetLeft: Double? {
        mutating get {
            let now = DispatchTime.now().uptimeNanoseconds
            if now >= deadline {
                exhaustedBy = .maxMinutes
                return nil
            }
            if attempts.count >= request.maxAttempts {
                exhaustedBy = .maxAttempts
                return nil
            }
            return Double(deadline - now) / 1e9
        }
    }

    mutating func account(_ run: Verification) {
        verificationMilliseconds += run.totalMilliseconds
        overheadMilliseconds += run.overheadMilliseconds
    }
}
