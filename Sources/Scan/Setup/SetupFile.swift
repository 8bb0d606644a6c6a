/// A file `sentinel init` writes, relative to the project's root.
public struct SetupFile: Sendable, Equatable {
    /// Where, relative to the root (`.github/workflows/sentinel.yml`).
    public var path: String
    /// Its text.
    public var text: String
    /// Whether it is a file the project may already have for other tools (`.pre-commit-config.yaml`):
    /// then it is never replaced, and `text` is shown as what to add.
    public var shared: Bool

    /// A file at `path` holding `text`.
    public init(path: String, text: String, shared: Bool = false) {
        self.path = path
        self.text = text
        self.shared = shared
    }
}

extension ProjectSetup {
    /// The files that set the project up: `.sentinel.yml`, and on request the GitHub Actions
    /// workflow and the pre-commit configuration.
    public func files(workflow: Bool, preCommit: Bool) -> [SetupFile] {
        var files = [SetupFile(path: ".sentinel.yml", text: SentinelConfigTemplate.text(for: self))]
        if workflow { files.append(SetupFile(path: ".github/workflows/sentinel.yml", text: WorkflowTemplate.text(for: self))) }
        if preCommit { files.append(SetupFile(path: ".pre-commit-config.yaml", text: PreCommitTemplate.text, shared: true)) }
        return files
    }
}
