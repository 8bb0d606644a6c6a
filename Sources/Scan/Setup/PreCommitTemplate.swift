/// The pre-commit configuration `sentinel init` writes (or shows, when the project has one): a
/// local hook running the `sentinel` on PATH over the staged files it reads, the same hook as
/// the repository's `.pre-commit-hooks.yaml`.
public enum PreCommitTemplate {
    /// The files the hook passes: Python sources, requirements files, lockfiles and `.env` files.
    public static let files =
        #"(\.pyw?|\.pyi|(^|/)requirements[^/]*\.(txt|in)|(^|/)(poetry\.lock|Pipfile\.lock|uv\.lock|pdm\.lock|Cargo\.lock|go\.mod|go\.sum|package-lock\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lock|Gemfile\.lock|composer\.lock|Package\.resolved)|(^|/)\.env(\.[^/]*)?)$"#

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
