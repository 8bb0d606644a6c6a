import Autonomy
import CLICore
import Foundation
import Git
import Heal
import Sandbox
import Support
import Synchronization

/// `heal` started as root (issue 53): the whole heal -- the signal, the repository's policy,
/// the snapshot, the actors, the memory, the autonomy step and its git runs -- runs as the
/// unprivileged analysis. Root launches it and keeps only what needs it: the state directory
/// lent at its path, a scratch directory of the analysis's own for candidate trees, the signal,
/// `--policy` and the LLM key file handed over by descriptor, `--out` written from what the
/// analysis sends, egress only to the hosts root's configuration names (the LLM, the `--policy`
/// webhook, GitHub's API with a token), and the repository writable only through the git
/// commit an actor may make.
extension HealCommand {
    /// The broker's names of the files heal reads through a descriptor.
    static let signalResource = "heal-signal"
    static let llmKeyResource = "heal-llm-key"
    /// The broker's slots of `--out`'s files, by this prefix and the file's name.
    static let outputSlot = "heal-out/"

    /// Root's part: returns the status the analysis ended with.
    func separatedHeal(output: PreparedOutputDirectory?, requested: AutonomyLevel?) throws -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        // The work tree's top, where an actor's commit and git's view of the tree need it, unless
        // the state directory lies in it (it is lent apart: `make demo` heals a fixture of
        // Sentinel's own checkout with its state below it); then the directory alone.
        let state = AnalysisSandbox.absolute(try StateLocation.current().path)
        var analysis = try AnalysisSandbox.over(repo, named: [repo]) { directory in
            let real = OutputPlacement.realPath(directory) ?? AnalysisSandbox.absolute(directory)
            guard let top = AnalysisSandbox.workTreeTop(real), !(state == top || state.hasPrefix(top + "/")) else { return real }
            return top
        }
        analysis.credentials = .passed
        analysis.scratch = true
        analysis.interactive = signal == "-"
        analysis.writableRepository = requested == nil || requested == .actor
        if analysis.writableRepository { analysis.lendGitIdentity(option: author, repository: repo) }
        try analysis.lendState(try StateLocation.current())
        try analysis.lendOperatorPolicy(policy)
        if signal != "-" { analysis.resources[Self.signalResource] = AnalysisSandbox.absolute(signal) }
        // The operator's profile file: its own binds and egress, and the file itself, for launches.
        analysis.launchProfiles.append(
            try OptionValue.naming("--profile") { try ProfileStore.standard(syntax: .yaml).resolve(profile) })
        if profile.contains("/") || ["yaml", "yml", "json"].contains(PathText.pathExtension(of: profile)) {
            analysis.readOnlyFiles.append(AnalysisSandbox.absolute(profile))
        }
        if case .directory(let path) = try packageIndex.map({ try PackageIndex(parsing: $0) }) {
            analysis.readOnlyFiles.append(path)
        }
        if let keyFile = environment["SENTINEL_LLM_KEY_FILE"], !keyFile.isEmpty {
            analysis.resources[Self.llmKeyResource] = AnalysisSandbox.absolute(keyFile)
        }
        if let url = environment["SENTINEL_LLM_URL"], environment["SENTINEL_LLM_MODEL"].map({ !$0.isEmpty }) ?? false {
            analysis.egress += EgressEntry.of(url: url)
        }
        // Heal memory's embeddings provider: its own URL, else the LLM's.
        let embeddingsURL = [environment["SENTINEL_EMBEDDINGS_URL"], environment["SENTINEL_LLM_URL"]].compactMap { $0 }.first {
            !$0.isEmpty
        }
        if environment["SENTINEL_EMBEDDINGS_MODEL"].map({ !$0.isEmpty }) ?? false, let url = embeddingsURL {
            analysis.egress += EgressEntry.of(url: url)
        }
        // --out's files come through slots and are written here, all at once, when the analysis
        // sent them (root writes bytes, never reads them).
        let received = Mutex<[String: Data]>([:])
        for name in HealOutput.files {
            analysis.slots[Self.outputSlot + name] = { data in received.withLock { $0[name] = data } }
        }
        let status = try analysis.run()
        let files = received.withLock { $0 }
        if let output, let evidence = files["evidence.json"] {
            let patch: [(name: String, data: Data)] = files["patch.diff"].map { [("patch.diff", $0)] } ?? []
            try output.write(patch + [("evidence.json", evidence)])
        }
        return status
    }
}
