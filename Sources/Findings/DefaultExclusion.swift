/// Files of one kind the default ignores left out of code and dependency analysis, and the
/// patterns that matched them. The secrets scan still reads them: a credential committed in a
/// test or in build output leaks all the same.
public struct DefaultExclusion: Sendable, Codable, Hashable {
    /// Why a kind of file is left out by default.
    public enum Kind: String, Sendable, Codable, Hashable, CaseIterable {
        /// Test code (`tests/`, `test_*.py`, `conftest.py`): asserts and fixtures by design.
        case tests
        /// Installed or vendored code the project does not own (`.venv/`, `node_modules/`).
        case dependencies
        /// Generated output (`build/`, `dist/`, `__pycache__/`).
        case build
        /// Generated or vendored code recognised by its content wherever it lies (a bundle, a
        /// minified library, a hashed chunk, a copy of a scanned file under an output
        /// directory); its `patterns` are the signals that matched (`minified`, `source map`).
        case generated

        /// `test code`, as summaries name the kind.
        public var title: String {
            switch self {
            case .tests: "test code"
            case .dependencies: "dependencies"
            case .build: "build output"
            case .generated: "generated or vendored code"
            }
        }
    }

    /// Which kind of file.
    public var kind: Kind
    /// How many files of that kind were left out.
    public var files: Int
    /// The default patterns that matched them (`tests/`, `conftest.py`), in the defaults' order;
    /// for generated code, the signals that recognised it (`minified`, `bundler runtime`).
    public var patterns: [String]

    /// For generated code, each file left out with the signals that recognised it, so that a
    /// reader can check what the classifier took (as Semgrep's JSON lists the files it skipped);
    /// nil for the kinds a path pattern names.
    public var signalsByFile: [String: [String]]?

    /// Records `files` files of `kind`, matched by `patterns` (and for generated code, each
    /// file's signals).
    public init(kind: Kind, files: Int, patterns: [String], signalsByFile: [String: [String]]? = nil) {
        self.kind = kind
        self.files = files
        self.patterns = patterns
        self.signalsByFile = signalsByFile
    }
}

extension Report {
    /// Files the default ignores left out (tests, environments, vendored and build output,
    /// generated code).
    public var excludedByDefault: Int { defaultExclusions.reduce(0) { $0 + $1.files } }

    /// `4 files left out of code analysis by the default ignores: 2 test code (tests/,
    /// conftest.py), 1 build output (build/); secrets are still searched in them
    /// (--no-default-excludes analyses them)`, the line every format prints; nil when none.
    public var defaultExclusionSummary: String? {
        guard excludedByDefault > 0 else { return nil }
        let files = excludedByDefault == 1 ? "1 file" : "\(excludedByDefault) files"
        let kinds = defaultExclusions.map { "\($0.files) \($0.kind.title) (\($0.patterns.joined(separator: ", ")))" }
        return "\(files) left out of code analysis by the default ignores: \(kinds.joined(separator: ", ")); "
            + "secrets are still searched in them (--no-default-excludes analyses them)"
    }
}
