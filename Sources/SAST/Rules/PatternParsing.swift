import JavaScriptLowering
import JavaScriptSyntax
import PythonSyntax

/// Rule patterns written in JavaScript or TypeScript, read by the JavaScript front end in its
/// pattern mode and lowered like code, so that a pattern and the code it matches have one shape.
enum PatternParsing {
    /// The lowered tree of `text` (``JavaScriptLowering/lowerPattern(_:dialect:)``), read as TSX:
    /// TypeScript's types and JSX both parse, so one pattern serves `.js`, `.jsx`, `.ts` and `.tsx`.
    /// - Throws: ``JavaScriptPatternError``.
    static func javaScript(_ text: String) throws -> PyNode {
        try JavaScriptLowering.lowerPattern(text, dialect: .tsx)
    }
}
