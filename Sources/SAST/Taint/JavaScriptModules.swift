import Languages
import JavaScriptLowering

/// The project's JavaScript and TypeScript files as modules, for ``ProjectSummaries`` (issue 60):
/// named as the lowering names the relative modules that import them
/// (``JavaScriptLowering/module(ofFile:)``), under a root of their own.
enum JavaScriptModules {
    /// The first part of every JavaScript module's name (`-js.routes.users`): no Python module's
    /// name has a `-`, so a Python import never resolves to a JavaScript file, nor one language's
    /// summaries land under the other's name (`app/db.py` beside `app/db.js`).
    static let root = "-js"

    /// Whether `file` is read by the JavaScript front end (Vue and Svelte components included).
    static func isJavaScript(_ file: String) -> Bool {
        SourceLanguage(fileName: file).map { $0 != .python } ?? false
    }

    /// The module `file` is (`routes/users.js` → `-js.routes.users`, `index.ts` → `-js`); nil for
    /// a type declaration or a file that is no module.
    static func name(of file: String) -> String? {
        guard let module = JavaScriptLowering.module(ofFile: file) else { return nil }
        return module.name.isEmpty ? root : root + "." + module.name
    }

    /// Whether `file` is its directory's package (`index.*`, as Python's `__init__.py`).
    static func isPackage(_ file: String) -> Bool {
        JavaScriptLowering.module(ofFile: file)?.isPackage ?? false
    }

    /// Whether a dotted name is a JavaScript module's (under ``root``).
    static func contains(_ dotted: String) -> Bool {
        dotted.hasPrefix(root)
            && (dotted.utf8.count == root.utf8.count || dotted.utf8.dropFirst(root.utf8.count).first == UInt8(ascii: "."))
    }

    /// The extensions in the order a module name picks its file when several have it (`foo.ts`
    /// beside the `foo.js` compiled from it): TypeScript's sources first, as its compiler resolves them.
    private static let extensionOrder = ["ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs", "vue", "svelte"]

    /// Whether `file` rather than `other` is the module both are named as: a file before a
    /// directory's `index` (as Node and TypeScript resolve `./foo`), then by ``extensionOrder``,
    /// then by path, whatever order the files are listed in.
    static func preferred(_ file: String, over other: String) -> Bool {
        func rank(_ path: String) -> (Int, Int, String) {
            let suffix = path.split(separator: ".").last.map { String($0).lowercased() } ?? ""
            return (isPackage(path) ? 1 : 0, extensionOrder.firstIndex(of: suffix) ?? extensionOrder.count, path)
        }
        return rank(file) < rank(other)
    }
}
