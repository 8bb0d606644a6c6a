import Support

/// A language the engine reads. Each front end lowers its files into the one tree the matcher,
/// dataflow and taint work on (DESIGN §1b); a rule names the languages it applies to
/// (`languages:`), and its patterns are written in, and parsed as, that language.
public enum SourceLanguage: String, Sendable, Hashable, CaseIterable {
    /// `.py`, `.pyw`, `.wsgi`, scripts with a Python shebang, notebooks' code cells.
    case python
    /// `.js`, `.mjs`, `.cjs`, `.jsx`, the `<script>` of `.vue` and `.svelte` files, and scripts
    /// with a Node shebang.
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
        // `.wsgi`: mod_wsgi's application script, Python whatever its first line says.
        case "py", "pyw", "pyi", "ipynb", "wsgi": self = .python
        case "js", "mjs", "cjs", "jsx", "vue", "svelte": self = .javascript
        case "ts", "mts", "cts", "tsx": self = .typescript
        default: return nil
        }
    }

    /// The language of a script run by `interpreter` (its shebang's, ``Shebang/interpreter(of:)``):
    /// `python3.12` and `pypy3` are Python, `node` and `nodejs` JavaScript, `deno`, `bun`,
    /// `ts-node` and `tsx` TypeScript (whose grammar reads JavaScript too); nil for any other.
    public init?(interpreter: String) {
        let name = interpreter.lowercased()
        if name.hasPrefix("python") || name.hasPrefix("pypy") {
            self = .python
        } else if name == "node" || name == "nodejs" {
            self = .javascript
        } else if ["deno", "bun", "ts-node", "tsx"].contains(name) {
            self = .typescript
        } else {
            return nil
        }
    }

    /// The language of a script by its first line (`#!/usr/bin/env node`); nil without one the
    /// engine reads.
    public init?(shebang head: some Collection<UInt8>) {
        guard let interpreter = Shebang.interpreter(of: head) else { return nil }
        self.init(interpreter: interpreter)
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
