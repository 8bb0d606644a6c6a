/// Which grammar a file is read with: the file name decides (``init(fileName:)``).
public struct JavaScriptDialect: Sendable, Hashable, CustomStringConvertible {
    /// TypeScript syntax (annotations, interfaces, enums, `as`, generics...).
    public var typeScript: Bool
    /// JSX elements are read in expressions.
    public var jsx: Bool

    /// Creates a dialect.
    public init(typeScript: Bool, jsx: Bool) {
        self.typeScript = typeScript
        self.jsx = jsx
    }

    /// JavaScript with JSX: `.js`, `.mjs`, `.cjs`, `.jsx` (React code in `.js` files is common).
    public static let javaScript = JavaScriptDialect(typeScript: false, jsx: true)
    /// TypeScript without JSX, where `<T>x` is a type assertion: `.ts`, `.mts`, `.cts`.
    public static let typeScript = JavaScriptDialect(typeScript: true, jsx: false)
    /// TypeScript with JSX: `.tsx`.
    public static let tsx = JavaScriptDialect(typeScript: true, jsx: true)

    /// The dialect of a file by its extension; nil for a file that is not JavaScript or TypeScript.
    /// `.vue` and `.svelte` give nil: their `<script>` blocks say (``ScriptBlocks``).
    public init?(fileName: String) {
        let name = fileName.lowercased()
        guard let dot = name.lastIndex(of: ".") else { return nil }
        switch name[name.index(after: dot)...] {
        case "js", "mjs", "cjs", "jsx": self = .javaScript
        case "ts", "mts", "cts": self = .typeScript
        case "tsx": self = .tsx
        default: return nil
        }
    }

    /// `javascript`, `typescript` or `tsx`.
    public var description: String { typeScript ? (jsx ? "tsx" : "typescript") : "javascript" }
}
