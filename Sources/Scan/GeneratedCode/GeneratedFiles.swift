import Findings
import Support

/// The generated or vendored files among a scan's selection, each with the signals that said so
/// (`GeneratedCodeClassifier`, `BuildCopies`). Each classified file costs one bounded read of its
/// two ends; files of equal size are read whole once more to find copies.
///
/// In a pull request's scan (`base`), a file the change touches is left out only on the base's
/// word: a file the base holds is generated when the base's content is too (so a head that adds
/// a source map comment or a `DO NOT EDIT` line to `app.js` leaves it analysed), and a file the
/// change adds only when its whole content is minified and shows one signal more
/// (`GeneratedCodeClassifier.isGeneratedAddition`). A copy of a scanned file stays out either
/// way: its twin is analysed.
struct GeneratedFiles: Sendable {
    /// Left-out files with the signals that matched, in the summary's order.
    var signals: [String: [GeneratedCodeSignal]] = [:]

    /// Classifies the files among `files` the classifier reads, through `tree`; `maxFileBytes`
    /// bounds a whole read (copies, a pull request's added files).
    static func find(_ files: [String], tree: TreeReader, base: BaseContents?, maxFileBytes: Int) -> GeneratedFiles {
        let candidates = files.filter(GeneratedCodeClassifier.classifies)
        let samples = ParallelFor.map(candidates) { path -> (FileEnds?, [GeneratedCodeSignal]) in
            guard let ends = try? tree.ends(path, head: SourceSample.headBytes, tail: SourceSample.tailBytes) else {
                return (nil, [])
            }
            return (ends, GeneratedCodeClassifier.signals(path: path, sample: SourceSample(ends)))
        }
        var found = GeneratedFiles()
        var others: [(path: String, size: Int)] = []
        for (path, (ends, signals)) in zip(candidates, samples) {
            if GeneratedCodeClassifier.isGenerated(signals) {
                found.signals[path] = signals
            } else if let ends, ends.size <= maxFileBytes {
                others.append((path, ends.size))
            }
        }
        let copies = BuildCopies.copies(others) { path in (try? tree.read(path, limit: maxFileBytes)).map { Array($0) } }
        for path in copies.keys { found.signals[path] = [.buildCopy] }
        if let base { found.keepChanged(base, tree: tree, maxFileBytes: maxFileBytes) }
        return found
    }

    /// Puts back what a pull request's change touched and the base does not vouch for.
    private mutating func keepChanged(_ base: BaseContents, tree: TreeReader, maxFileBytes: Int) {
        for (path, found) in signals where base.changedFiles.contains(path) && found != [.buildCopy] {
            if let before = base.read(path) {
                let earlier = GeneratedCodeClassifier.signals(path: path, sample: SourceSample(bounding: before))
                if !GeneratedCodeClassifier.isGenerated(earlier) { signals[path] = nil }
                continue
            }
            guard let data = try? tree.read(path, limit: maxFileBytes) else {
                signals[path] = nil
                continue
            }
            let whole = GeneratedCodeClassifier.signals(path: path, sample: SourceSample(whole: Array(data)))
            if !GeneratedCodeClassifier.isGeneratedAddition(whole) { signals[path] = nil }
        }
    }

    /// The one summary entry for the files left out: how many, every signal any matched, and
    /// each file's.
    var exclusion: DefaultExclusion? {
        guard !signals.isEmpty else { return nil }
        let matched = Set(signals.values.joined()).sorted()
        return DefaultExclusion(
            kind: .generated, files: signals.count, patterns: matched.map(\.title),
            signalsByFile: signals.mapValues { $0.map(\.title) })
    }
}
