import Git
import Signals

/// What a remembered fix may change when it is replayed: files that exist, and that the signal
/// being healed is in — its locations (a finding's file, a traceback's frames, a manifest) and,
/// for a failure the tests show, the code under test the failing tests ran on this very tree (the
/// traced baseline run). Memory is a record of other heals: a patch from it never adds, deletes,
/// renames or copies a file, changes a mode, carries binary data, or touches any other file
/// (issue 53, R8: a shared row added `sitecustomize.py` to another repository's heal).
struct ReplayScope: Sendable {
    /// Repository-relative paths a replay may change.
    let files: Set<String>

    /// Why `patch` may not be replayed, read from its text before anything is applied; nil when
    /// it may. Each file's part is judged whole: git's header lines, then hunks read by their
    /// counts (a removed line `--- x` is content, not a header).
    func refusal(of patch: String) -> String? {
        var section = Section()
        var hunk: (old: Int, new: Int)?
        for line in patch.split(separator: "\n", omittingEmptySubsequences: false) {
            if let counts = hunk {
                hunk = Self.consume(line, counts)
                continue
            }
            if line.hasPrefix("diff --git ") || (line.hasPrefix("--- ") && section.hasHunks) {
                if let why = section.refusal(in: files) { return why }
                section = Section()
            }
            if line.hasPrefix("@@ ") {
                guard let counts = Self.counts(line) else { return "its hunk header '\(line.prefix(80))' is not one git writes" }
                section.hasHunks = true
                hunk = counts.old == 0 && counts.new == 0 ? nil : counts
            } else {
                section.read(header: line)
            }
        }
        return section.refusal(in: files)
    }

    /// Why the changes `git apply` made may not be replayed, or nil: the same rules on what was
    /// applied, not on what the text says.
    func refusal(of changes: [FileChange]) -> String? {
        for change in changes {
            if change.before == nil { return "it adds \(change.path)" }
            if change.after == nil { return "it deletes \(change.path)" }
            if !files.contains(change.path) { return "it changes \(change.path), which the signal is not in" }
        }
        return nil
    }

    /// The counts left after one line of a hunk; nil when the hunk is over.
    private static func consume(_ line: Substring, _ counts: (old: Int, new: Int)) -> (old: Int, new: Int)? {
        var counts = counts
        if line.hasPrefix("\\") { return counts }  // "\ No newline at end of file"
        if line.hasPrefix("-") {
            counts.old -= 1
        } else if line.hasPrefix("+") {
            counts.new -= 1
        } else {
            counts.old -= 1
            counts.new -= 1
        }
        return counts.old <= 0 && counts.new <= 0 ? nil : counts
    }

    /// `@@ -a,b +c,d @@` → (b, d); a count left out is 1.
    static func counts(_ line: Substring) -> (old: Int, new: Int)? {
        let fields = line.split(separator: " ")
        guard fields.count >= 4, fields[0] == "@@", fields[3] == "@@" else { return nil }
        func count(_ range: Substring, sign: Character) -> Int? {
            guard range.first == sign else { return nil }
            let parts = range.dropFirst().split(separator: ",", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
                parts.allSatisfy({ Int($0).map { $0 >= 0 } == true })
            else { return nil }
            return parts.count == 2 ? Int(parts[1]) : 1
        }
        guard let old = count(fields[1], sign: "-"), let new = count(fields[2], sign: "+") else { return nil }
        return (old, new)
    }

    /// One file's part of a patch: the paths its headers name and what they say it does.
    private struct Section {
        /// What a header says the part does to its file, besides changing lines.
        enum Action: String {
            case adds, deletes
            case renames = "renames or copies"
            case mode = "changes the mode of"
            case binary = "changes as binary data"
        }

        var paths: [String] = []
        var action: Action?
        var malformed: String?
        var hasHunks = false

        mutating func read(header line: Substring) {
            if line.hasPrefix("diff --git ") {
                // `a/X b/Y`, split at " b/"; each name is checked again on its ---/+++ line.
                let names = line.dropFirst("diff --git ".count)
                guard let middle = names.range(of: " b/") else {
                    malformed = malformed ?? "its header '\(line.prefix(80))' names no a/ and b/ paths"
                    return
                }
                name(names[..<middle.lowerBound], side: "a/")
                name(names[names.index(after: middle.lowerBound)...], side: "b/")
            } else if line == "--- /dev/null" || line.hasPrefix("new file mode") || line.hasPrefix("copy to ") {
                action = action ?? .adds
            } else if line == "+++ /dev/null" || line.hasPrefix("deleted file mode") {
                action = action ?? .deletes
            } else if line.hasPrefix("rename from ") || line.hasPrefix("rename to ") || line.hasPrefix("copy from ") {
                action = action ?? .renames
            } else if line.hasPrefix("old mode ") || line.hasPrefix("new mode ") {
                action = action ?? .mode
            } else if line.hasPrefix("GIT binary patch") || line.hasPrefix("Binary files ") {
                action = action ?? .binary
            } else if line.hasPrefix("--- ") {
                name(line.dropFirst(4), side: "a/")
            } else if line.hasPrefix("+++ ") {
                name(line.dropFirst(4), side: "b/")
            }
        }

        private mutating func name(_ text: Substring, side: String) {
            guard text.hasPrefix(side) else {
                malformed = malformed ?? "it names '\(text.prefix(80))', not \(side)PATH"
                return
            }
            let path = String(text.dropFirst(side.count))
            if !paths.contains(path) { paths.append(path) }
        }

        /// The first thing wrong with this part, or nil.
        func refusal(in files: Set<String>) -> String? {
            if let malformed { return malformed }
            let file = paths.last ?? "a file"
            switch action {
            case .binary?: return "it changes \(file) as binary data"
            case let action?: return "it \(action.rawValue) \(file)"
            case nil: break
            }
            return paths.first { !files.contains($0) }.map { "it changes \($0), which the signal is not in" }
        }
    }
}

extension ReplayScope {
    /// The scope of `signal`: the files it names (its locations, a dependency's manifest) and
    /// `executed`, the code its failing tests ran on this tree (no test file, none only tests load).
    init(signal: Signal, executed: Set<String>) {
        var files = Set(signal.locations.map(\.file)).union(executed)
        if let manifest = signal.dependency?.manifest { files.insert(manifest) }
        self.init(files: files)
    }
}
