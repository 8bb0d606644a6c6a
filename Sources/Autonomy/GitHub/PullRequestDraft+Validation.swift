import Git
import Support

extension PullRequestDraft {
    /// Refuses a draft GitHub would reject or that could address something else than meant (a
    /// path with `..`, a branch name git would not take), before any request is sent.
    func validate() throws {
        try Self.checkRepository(repository)
        try Self.checkBranchName(base, role: "base branch")
        try Self.checkBranchName(branch, role: "branch")
        guard branch != base else { throw Self.invalid("the branch '\(branch)' is the base branch itself") }
        guard baseCommit.utf8.count == 40, baseCommit.utf8.allSatisfy(\.isHexDigit) else {
            throw Self.invalid("base commit '\(baseCommit)' is not a 40-hex commit id")
        }
        guard !title.allSatisfy(\.isWhitespace) else { throw Self.invalid("the title is empty") }
        guard !commitMessage.allSatisfy(\.isWhitespace) else { throw Self.invalid("the commit message is empty") }
        guard !changes.isEmpty else { throw Self.invalid("the change touches no file") }
        var seen = Set<String>()
        for change in changes {
            try GitPatch.checkRelative(change.path)
            guard seen.insert(change.path).inserted else { throw Self.invalid("\(change.path) is changed twice") }
            guard change.before != nil || change.after != nil else {
                throw Self.invalid("\(change.path) is neither added, changed nor deleted")
            }
        }
        if labels.contains(where: { $0.allSatisfy(\.isWhitespace) }) { throw Self.invalid("a label is empty") }
    }

    /// `owner/name`, each part of letters, digits, `.`, `_` and `-` (and neither `.` nor `..`).
    static func checkRepository(_ repository: String) throws {
        let parts = repository.split(separator: "/", omittingEmptySubsequences: false)
        let valid =
            parts.count == 2
            && parts.allSatisfy { part in
                !part.isEmpty && part != "." && part != ".."
                    && part.utf8.allSatisfy {
                        $0.isASCIIAlphanumeric || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
                    }
            }
        guard valid else {
            throw invalid("repository '\(repository)' is not owner/name (letters, digits, '.', '_', '-')")
        }
    }

    /// The rules of `git check-ref-format` for a branch name, so that GitHub never answers with
    /// a ref other than the one named.
    static func checkBranchName(_ name: String, role: String) throws {
        let forbidden = Set("~^:?*[\\".utf8)
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        let valid =
            !name.isEmpty && name != "@" && !name.hasPrefix("-") && !name.hasPrefix("/") && !name.hasSuffix("/")
            && !name.hasSuffix(".") && !name.contains("..") && !name.contains("@{")
            && !name.utf8.contains { $0 <= 0x20 || $0 == 0x7f || forbidden.contains($0) }
            && components.allSatisfy { !$0.isEmpty && !$0.hasPrefix(".") && !$0.hasSuffix(".lock") }
        guard valid else { throw invalid("\(role) '\(name)' is not a valid git branch name") }
    }

    private static func invalid(_ problem: String) -> SentinelError {
        SentinelError(.invalidInput, "pull request draft: \(problem)")
    }
}

extension UInt8 {
    /// `0-9`, `a-f` or `A-F`.
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }

    /// An ASCII letter or digit.
    fileprivate var isASCIIAlphanumeric: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
    }
}
