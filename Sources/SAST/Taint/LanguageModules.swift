import Languages
import PythonSyntax
import SyntaxTree

/// The project's files as modules, for ``ProjectSummaries`` (issues 60, 77): each named by its
/// language (``Language/module(ofFile:)``) in its language's namespace
/// (``ModuleConventions/namespace``), so that no import of one language resolves to another's file.
enum LanguageModules {
    /// The language whose conventions name `file`: its language by name; a file named for none
    /// (a script read by its shebang) is named as the root namespace's files are (Python's).
    static func language(of file: String) -> any Language {
        Languages.language(ofFile: file) ?? rootLanguage
    }

    /// The first registered language whose modules are at the root of the namespace (Python).
    static var rootLanguage: any Language {
        Languages.registry.all.first { $0.modules.namespace.isEmpty } ?? PythonLanguage()
    }

    /// The module `file` is, in its language's namespace (`routes/users.js` → `-js.routes.users`,
    /// `index.ts` → `-js`; `pkg/mod.py` → `pkg.mod`, under `rootPackage` for a language with
    /// package files); nil for a file that is no module.
    static func name(of file: String, rootPackage: String?) -> String? {
        name(of: file, in: language(of: file), rootPackage: rootPackage)
    }

    /// ``name(of:rootPackage:)`` with the conventions of `language`.
    static func name(of file: String, in language: any Language, rootPackage: String?) -> String? {
        guard let module = language.module(ofFile: file) else { return nil }
        let namespace = language.modules.namespace
        if !namespace.isEmpty { return module.name.isEmpty ? namespace : namespace + "." + module.name }
        var parts = module.name.isEmpty ? [] : [module.name]
        if let rootPackage, language.modules.packageFileName != nil { parts.insert(rootPackage, at: 0) }
        return parts.isEmpty ? nil : parts.joined(separator: ".")
    }

    /// Whether `file` is its directory's package: named as its language's package file
    /// (`__init__.py`), or, for a language without one, the module its name says is
    /// (`index.js`).
    static func isPackage(_ file: String) -> Bool {
        let language = language(of: file)
        if let packageFile = language.modules.packageFileName { return file.hasSuffix(packageFile) }
        return language.module(ofFile: file)?.isPackage ?? false
    }

    /// Whether a dotted name is in `namespace` (`-js.routes` and `-js` are in `-js`).
    static func contains(_ dotted: String, namespace: String) -> Bool {
        dotted.hasPrefix(namespace)
            && (dotted.utf8.count == namespace.utf8.count || dotted.utf8.dropFirst(namespace.utf8.count).first == UInt8(ascii: "."))
    }

    /// Whether a dotted name is in any registered language's own namespace (none of the root's).
    static func isNamespaced(_ dotted: String) -> Bool {
        namespaces.contains { contains(dotted, namespace: $0) }
    }

    /// The registered languages' own namespaces.
    private static var namespaces: Set<String> {
        Set(Languages.registry.all.map(\.modules.namespace).filter { !$0.isEmpty })
    }

    /// Whether `file` rather than `other` is the module both are named as: a file before a
    /// directory's package (as Node and TypeScript resolve `./foo`), then the language the
    /// conventions prefer (``ModuleConventions/preference``: `foo.ts` before the `foo.js` compiled
    /// from it), then the language's order of extensions, then by path, whatever order the files
    /// are listed in.
    static func preferred(_ file: String, over other: String) -> Bool {
        func rank(_ path: String) -> (Int, Int, Int, String) {
            let language = language(of: path)
            let suffix = LanguageRegistry.fileExtension(of: path) ?? ""
            let extensions = language.fileExtensions
            return (
                isPackage(path) ? 1 : 0, language.modules.preference, extensions.firstIndex(of: suffix) ?? extensions.count, path
            )
        }
        return rank(file) < rank(other)
    }
}
