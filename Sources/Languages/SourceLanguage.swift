import Support
import SyntaxTree

/// A language the engine reads, by its name in ``Languages/registry``: an open value, so that a
/// language registered later (a plug-in, a test's) is one as much as the built-ins. Each front
/// end lowers its files into the one tree the matcher, dataflow and taint work on (DESIGN §1b,
/// §1d); a rule names the languages it applies to (`languages:`), and its patterns are written
/// in, and parsed as, that language.
public struct SourceLanguage: Sendable, Hashable, CustomStringConvertible {
    /// The registered language's name (`python`).
    public let name: String

    /// The language registered as `language.name`.
    public init(_ language: any Language) { name = language.name }

    private init(registered name: String) { self.name = name }

    /// Python (``PythonSyntax/PythonLanguage``).
    public static let python = SourceLanguage(registered: "python")
    /// JavaScript (``JavaScriptLowering/JavaScriptLanguage/javaScript``).
    public static let javascript = SourceLanguage(registered: "javascript")
    /// TypeScript (``JavaScriptLowering/JavaScriptLanguage/typeScript``).
    public static let typescript = SourceLanguage(registered: "typescript")

    /// The name.
    public var description: String { name }

    /// What the registry holds under this name (nil for a name no language was registered under,
    /// which no initialiser below gives).
    public var language: (any Language)? { Languages.registry.language(named: name) }

    /// A file's language by its name; nil for a file no language reads by name (a Python script
    /// without an extension is Python by its shebang, which the scan lists as Python).
    public init?(fileName: String) {
        guard let language = Languages.registry.language(ofFile: fileName) else { return nil }
        self.init(language)
    }

    /// The language of a script run by `interpreter` (its shebang's, ``Shebang/interpreter(of:)``);
    /// nil for one no registered language runs.
    public init?(interpreter: String) {
        guard let language = Languages.registry.language(ofInterpreter: interpreter) else { return nil }
        self.init(language)
    }

    /// The language of a script by its first line (`#!/usr/bin/env node`); nil without one the
    /// engine reads.
    public init?(shebang head: some Collection<UInt8>) {
        guard let interpreter = Shebang.interpreter(of: head) else { return nil }
        self.init(interpreter: interpreter)
    }

    /// The language a rule's `languages:` entry names, by name or alias (`js` and `ts` are
    /// accepted, as Semgrep does).
    public init?(ruleName: String) {
        guard let language = Languages.registry.language(named: ruleName) else { return nil }
        self.init(language)
    }

    /// The front end that reads this language's rule patterns (TypeScript's are JavaScript's).
    public var patternSyntax: String { language?.patternSyntax ?? name }

    /// The extensions of the languages whose patterns JavaScript's front end reads (JavaScript's
    /// and TypeScript's, Vue and Svelte components included).
    public static var javaScriptFamilyExtensions: Set<String> {
        Languages.registry.fileExtensions(patternSyntax: javascript.patternSyntax)
    }
}
