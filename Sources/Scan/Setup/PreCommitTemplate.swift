import Languages
import SAST
import SCA

/// The pre-commit configuration `sentinel init` writes (or shows, when the project has one): a
/// local hook running the `sentinel` on PATH over the staged files it reads, the same hook as
/// the repository's `.pre-commit-hooks.yaml`.
public enum PreCommitTemplate {
    /// The extensions of the source files the scan reads: every registered language's
    /// (``Languages/registry``: Python's sources, stubs and notebooks, JavaScript and TypeScript,
    /// Vue and Svelte components included) and templates.
    static let sourceExtensions: Set<String> = Languages.fileExtensions.union(TemplateFiles.extensions)

    /// The files the hook passes (Python's `re.search`, as pre-commit applies it): the sources of
    /// every language the scan reads, every lockfile and manifest the dependency scan reads (by name,
    /// by pattern, and any `.txt` of a `requirements/` directory), and `.env` files. Built from the
    /// scanners' own lists so that a language or lockfile they learn is staged too;
    /// `.pre-commit-hooks.yaml` holds the same text (a test compares them).
    public static let files: String = {
        let parsers = LockfileDetector(root: ".").parsers()
        let names = Set(parsers.flatMap { type(of: $0).fileNames }).sorted().map(regexEscaped)
        let patterns = Set(parsers.flatMap { type(of: $0).patterns }).sorted().map(regex(glob:))
        let extensions = sourceExtensions.sorted().map(regexEscaped)
        return "(\\.(" + extensions.joined(separator: "|") + ")"
            + "|(^|/)(" + names.joined(separator: "|") + ")"
            + "|(^|/)(" + (patterns + [#"requirements/[^/]*\.txt"#]).joined(separator: "|") + ")"
            + #"|(^|/)\.env(\.[^/]*)?)$"#
    }()

    /// `text` with regular-expression metacharacters escaped.
    private static func regexEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if #"\^$.|?*+()[]{}"#.contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// A file-name glob (`*` only, as lockfile parsers write them) as a regular expression: `*`
    /// stays inside one path component.
    private static func regex(glob: String) -> String {
        glob.split(separator: "*", omittingEmptySubsequences: false).map { regexEscaped(String($0)) }
            .joined(separator: "[^/]*")
    }

    static var text: String {
        """
        # Written by `sentinel init`: `sentinel scan` of the staged files before each commit
        # (`pre-commit install` once per clone). A staged lockfile is checked against the OSV
        # database: run `sentinel db update --for .` at least weekly.
        repos:
          - repo: local
            hooks:
              - id: sentinel-scan
                name: sentinel scan
                entry: sentinel scan
                language: system
                files: \(files)
                types: [file]
                pass_filenames: true

        """
    }
}
