import Support
import Synchronization

/// What a scan knows of its tree's files before it compiles the rules: every identifier they hold
/// and their texts lowercased, as the engine's per-file checks of a rule read them.
public struct TreeContents: Sendable {
    /// The union of the files' identifiers (``FileIndex/identifiers``).
    public var identifiers: Set<String>
    /// Each file's text, for rules that need literal text (``CompiledRule/textNeeds``).
    var texts: [LowercasedText]

    /// `identifiers` and no texts (a text requirement then rules a rule out).
    init(identifiers: Set<String>, texts: [LowercasedText] = []) {
        self.identifiers = identifiers
        self.texts = texts
    }
}

extension SASTEngine {
    /// Every identifier the files of a project hold, as the engine's per-file check reads them
    /// (``FileIndex/identifiers``, from the tree the scan analyses: lowering's own names included),
    /// for choosing which shipped rules to read before any is compiled (``RuleIndex``). Each tree
    /// read is kept in `project` for the scan, which then does not parse the file again; a file
    /// that does not parse gives none (the scan reports it). `read` is the scan's reader.
    /// Nil when the files noted by `project` hold more than `budget` bytes: every tree would be
    /// held at once, and compiling the rules is a small part of scanning such a tree.
    public static func contents(
        of files: [String], project: ProjectSummaries, read: @escaping @Sendable (String) -> String?,
        budget: Int = earlyParseBudget
    ) -> TreeContents? {
        guard files.reduce(0, { $0 + project.size(of: $1) }) <= budget else { return nil }
        let found = Mutex(TreeContents(identifiers: []))
        // Parsing recurses once per tree level: on large stacks, as the scan does.
        LargeStack.concurrentPerform(iterations: files.count) { i in
            guard let source = read(files[i]) else { return }
            let tree: ParsedSource
            if let kept = project.loweredTrees.peek(files[i], text: source) {
                tree = kept
            } else {
                let bytes = Array(source.utf8)
                guard let parsed = try? SourceFrontEnd.parse(bytes: bytes, file: files[i], language: language(of: files[i], bytes: bytes))
                else { return }
                project.loweredTrees.keep(parsed, text: source, for: files[i])
                tree = parsed
            }
            let identifiers = FileIndex.identifiers(of: tree.root)
            // The text the scan's file index lowercases (the same bytes it was parsed from).
            let text = LowercasedText(Array(source.utf8))
            found.withLock {
                $0.identifiers.formUnion(identifiers)
                $0.texts.append(text)
            }
        }
        return found.withLock { $0 }
    }

    /// 1 MiB of source: the small projects, where compiling the rules is most of a scan's CPU (the
    /// RealVuln apps analyse kilobytes). Beyond it, compiling is a small part of the scan, and
    /// holding every tree at once raised the peak memory of 2–4 MB projects by up to 40 MB for no
    /// CPU (BENCHMARKS, round 5).
    public static let earlyParseBudget = 1 << 20
}
