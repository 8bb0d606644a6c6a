/// A language the engine reads. Each front end lowers its files into the one tree the matcher,
/// dataflow and taint work on (DESIGN §1b); a rule names the languages it applies to
/// (`languages:`), and its patterns are written in, and parsed as, that language.
public enum SourceLanguage: String, Sendable, Hashable, CaseIterable {
    /// `.py`, `.pyw`, scripts with a Python shebang, notebooks' code cells.
    case python
    /// `.js`, `.mjs`, `.cjs`, `.jsx`, and the `<script>` of `.vue` and `.svelte` files.
    case javascript
    /// `.ts`, `.mts`, `.cts`, `.tsx`.
    case typescript

    /// The extensions of JavaScript and TypeScript files (Vue and Svelte components included).
    public static let javaScriptFamilyExtensions: Set<String> = ["js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "vue", "svelte"]

    /// A file's language by its name; nil for a file no front end reads by name (a Python
    /// script without an extension is Python by its shebang, which the scan lists as Python).
    public init?(fileName: String) {
        guard let dot = fileName.lastIndex(of: "."), fileName[dot...].count > 1 else { return nil }
        switch fileName[fileName.index(after: dot)...].lowercased() {
        case "py", "pyw", "pyi", "ipynb": self = .python
        case "js", "mjs", "cjs", "jsx", "vue", "svelte": self = .javascript
        case "ts", "mts", "cts", "tsx": self = .typescript
        default: return nil
        }
    }

    /// The language a rule's `languages:` entry names (`js` and `ts` are accepted, as Semgrep does).
    init?(ruleName: String) {
        switch ruleName.lowercased() {
        case "python", "py": self = .python
        case "javascript", "js": self = .javascript
        case "typescript", "ts": self = .typescript
        default: return nil
        }
    }

    /// The syntax patterns of a rule in this language are written in: TypeScript's patterns are
    /// read by the JavaScript front end, whose grammar is TypeScript's superset of JavaScript.
    var patternSyntax: PatternSyntax { self == .python ? .python : .javaScript }
}

/// The front end that reads a rule's patterns.
enum PatternSyntax: Sendable, Hashable {
    case python
    case javaScript
}
