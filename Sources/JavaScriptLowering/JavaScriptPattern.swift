import JavaScriptSyntax
import Support
import SyntaxTree

/// A rule pattern written in JavaScript or TypeScript could not be parsed.
///
/// `description` names the pattern (its first line) and where in it the problem is.
public struct JavaScriptPatternError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The pattern as the rule wrote it.
    public var pattern: String
    /// The parser's error; its file is ``JavaScriptParser/patternFileName`` and its line and column
    /// count in the dedented pattern.
    public var syntaxError: JavaScriptSyntaxError

    /// Creates an error.
    public init(pattern: String, syntaxError: JavaScriptSyntaxError) {
        self.pattern = pattern
        self.syntaxError = syntaxError
    }

    /// `JavaScript pattern 'f(': <pattern>:1:3: message`, one line.
    public var description: String {
        let firstLine = pattern.split(separator: "\n").first { !$0.allSatisfy(\.isWhitespace) }.map(String.init) ?? pattern
        let shown = firstLine.trimmingPrefix { $0 == " " || $0 == "\t" }
        return "JavaScript pattern '\(shown)': \(syntaxError.description)"
    }
}

extension JavaScriptLowering {
    /// Parses a rule pattern written in JavaScript or TypeScript (`dialect`) and lowers it like code,
    /// so that one matcher compares it with lowered code: the counterpart of
    /// `PythonParser.parsePattern`, with the same metavariables (`$X` and `$...X` are names) and
    /// the same `(ellipsis)` for `...` wherever an expression, argument, parameter, array element,
    /// object member, class member or statement may stand (`f(...)`, `f($X, ...)`,
    /// `function $F($REQ, ...) { ... }`, `{...}`, `[..., $X]`; `...x` stays a spread).
    ///
    /// The text is dedented as a YAML block's (`PatternText.dedent`). One expression statement is
    /// returned as its expression, one statement as itself, more as a `module`. Nothing is
    /// hoisted: a pattern's inline function (`app.get($P, (req, res) => {...})`) stays where it is
    /// written, an anonymous `functionDef` in the call, where lowered code has the `(name #fnN)` of
    /// its hoisted definition: following that name is the matcher's part, not this function's.
    /// - Throws: ``JavaScriptPatternError``, never a trap.
    public static func lowerPattern(_ text: String, dialect: JavaScriptDialect = .javaScript) throws -> SyntaxNode {
        var bytes = PatternText.dedent(text)
        // Without the newline dedent ends the last line with, an unfinished pattern's end of input
        // is reported on its last line rather than on the empty one after it.
        if bytes.last == 10 { bytes.removeLast() }
        let program: JavaScriptProgram
        do {
            program = try JavaScriptParser.parsePattern(bytes: bytes, dialect: dialect)
        } catch let error as JavaScriptSyntaxError {
            throw JavaScriptPatternError(pattern: text, syntaxError: error)
        }
        let root = program.root
        let lowered = try? LargeStack.run { Lowerer(pattern: true).statements(root.children) }
        let statements = lowered ?? Lowerer(pattern: true).statements(root.children)
        if statements.count == 1 {
            let only = statements[0]
            if only.kind == .exprStmt, let expression = only.children.first { return expression }
            return only
        }
        return SyntaxNode(.module, children: statements, range: root.range)
    }

    /// Whether `name` is a metavariable in a pattern: `$` (or `$...`) and an upper-case letter or
    /// `_`, then upper-case letters, digits or `_` (`$X`, `$...ARGS`; jQuery's `$` and `$el` are
    /// names of code).
    static func isMetavariable(_ name: String) -> Bool {
        var rest = Substring(name)
        guard rest.hasPrefix("$") else { return false }
        rest = rest.dropFirst()
        if rest.hasPrefix("...") { rest = rest.dropFirst(3) }
        guard let first = rest.first, first == "_" || ("A"..."Z").contains(first) else { return false }
        return rest.allSatisfy { $0 == "_" || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }
}
