/// Whether a file is read as a script or as a module (ECMAScript's goal symbols), which decides one
/// thing the grammar leaves to it here: HTML-like comments (`<!--`, and `-->` at a line's start),
/// which ECMAScript's Annex B.1.1 makes comments in scripts only.
///
/// Node runs a `.cjs` file as a CommonJS script and a `.mjs` file as a module; a `.js` file is
/// CommonJS unless its `package.json` says `"type": "module"` or (Node 22's syntax detection) it
/// holds `import`/`export` declarations, which a script cannot. The file name alone cannot see the
/// `package.json`, so a `.js` file is read as a script unless it declares imports or exports: a
/// comment that hides code Node runs is the worse mistake, and a module that holds `<!--` is one Node
/// refuses to run at all.
public enum JavaScriptGoal: Sendable, Hashable {
    /// A CommonJS script: HTML-like comments are comments.
    case script
    /// An ES module (`.mjs`, Vue and Svelte blocks, TypeScript): `<!--` is `<`, `!`, `--`.
    case module
    /// A script unless it declares imports or exports (`.js`, `.jsx`, other names).
    case scriptUnlessModuleSyntax

    /// The goal of a file by its name: `.cjs` a script; `.mjs`, `.vue` and `.svelte` (whose blocks
    /// the compilers emit as modules) a module; anything else (`.js`, `.jsx`, a `node` script with
    /// another name) a script unless module syntax says otherwise. TypeScript is read as a module
    /// whatever its name: its compiler reads no HTML-like comments.
    public init(fileName: String) {
        let name = fileName.lowercased()
        if name.hasSuffix(".cjs") {
            self = .script
        } else if name.hasSuffix(".mjs") || name.hasSuffix(".vue") || name.hasSuffix(".svelte") {
            self = .module
        } else {
            self = .scriptUnlessModuleSyntax
        }
    }
}
