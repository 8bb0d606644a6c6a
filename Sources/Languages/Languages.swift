import JavaScriptLowering
import PythonSyntax
import SyntaxTree

/// The languages Sentinel reads, in the one ordered registry (issue 77, the language seam):
/// Python, JavaScript, TypeScript, then whatever else is registered (a test's toy language).
/// Every question of which files are code, and in which language, is asked here.
public enum Languages {
    /// ``LanguageRegistry/shared`` with the built-in languages registered first.
    public static var registry: LanguageRegistry {
        _ = builtIns
        return LanguageRegistry.shared
    }

    /// Registers the built-ins once (a `static let` is initialised once, thread-safely).
    private static let builtIns: Void = {
        for language: any Language in [PythonLanguage(), JavaScriptLanguage.javaScript, JavaScriptLanguage.typeScript] {
            LanguageRegistry.shared.register(language)
        }
    }()

    /// Adds `language` after the registered ones (the built-ins first).
    public static func register(_ language: any Language) { registry.register(language) }

    /// Every extension a registered language reads by name.
    public static var fileExtensions: Set<String> { registry.fileExtensions }

    /// The language of `file` by its name, nil when none reads it by name.
    public static func language(ofFile file: String) -> (any Language)? { registry.language(ofFile: file) }
}
