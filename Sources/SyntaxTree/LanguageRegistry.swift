import Synchronization

/// The one ordered list of the languages the engine reads: the scan, the engine, heal and the
/// secrets scan ask it which files are code and in which language, instead of keeping extension
/// lists of their own. Order decides between languages that claim the same extension or
/// interpreter (the first registered wins).
///
/// The built-in languages are registered by the `Languages` module (``LanguageRegistry/shared``
/// starts empty here: this module owns no parser); a test or a plug-in registers more.
public final class LanguageRegistry: Sendable {
    /// The process's registry.
    public static let shared = LanguageRegistry()

    private let languages = Mutex<[any Language]>([])

    /// An empty registry.
    public init() {}

    /// Adds `language` after the ones registered, unless one of its name is registered already
    /// (registering is idempotent: every entry point may make sure of the built-ins).
    public func register(_ language: any Language) {
        languages.withLock { list in
            if !list.contains(where: { $0.name == language.name }) { list.append(language) }
        }
    }

    /// Every registered language, in order.
    public var all: [any Language] { languages.withLock { $0 } }

    /// The language a rule's `languages:` entry names, by name or alias, case-insensitively.
    public func language(named name: String) -> (any Language)? {
        let wanted = name.lowercased()
        return all.first { $0.name == wanted || $0.aliases.contains(wanted) }
    }

    /// The language of a file by its name's extension; nil when no language reads it by name.
    public func language(ofFile file: String) -> (any Language)? {
        guard let suffix = Self.fileExtension(of: file) else { return nil }
        return all.first { $0.fileExtensions.contains(suffix) }
    }

    /// The language of a script run by `interpreter` (its shebang's); nil when none runs it.
    public func language(ofInterpreter interpreter: String) -> (any Language)? {
        all.first { $0.runsScripts(of: interpreter) }
    }

    /// Every extension a registered language reads by name (lowercase, without the dot).
    public var fileExtensions: Set<String> { Set(all.flatMap(\.fileExtensions)) }

    /// The extensions of the languages whose patterns `syntax` reads (JavaScript's front end:
    /// JavaScript's and TypeScript's).
    public func fileExtensions(patternSyntax syntax: String) -> Set<String> {
        Set(all.filter { $0.patternSyntax == syntax }.flatMap(\.fileExtensions))
    }

    /// The lowercased extension of `file`'s last path component, without the dot; nil without one.
    public static func fileExtension(of file: String) -> String? {
        let name = file.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(file)
        guard let dot = name.lastIndex(of: "."), name.index(after: dot) < name.endIndex else { return nil }
        return name[name.index(after: dot)...].lowercased()
    }
}
