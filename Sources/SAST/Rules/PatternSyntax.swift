import Languages
import SyntaxTree

/// The front end that reads a rule's patterns: a registered language's ``Language/patternSyntax``
/// (JavaScript's and TypeScript's are one: JavaScript's front end read as TSX), so that a pattern
/// and the code it matches have one shape.
struct PatternSyntax: Sendable, Hashable {
    /// The syntax's name (`python`, `javascript`).
    let name: String

    /// Python's: a rule or set that names no language is Python's, as every rule was before
    /// languages were named.
    static let python = PatternSyntax(name: SourceLanguage.python.patternSyntax)

    /// The registered language whose front end reads these patterns (the first registered).
    var reader: (any Language)? { Languages.registry.all.first { $0.patternSyntax == name } }

    /// The tree of the pattern `text`, read and lowered by ``reader``.
    /// - Throws: ``SourceReadError``.
    func lower(_ text: String) throws(SourceReadError) -> SyntaxNode {
        guard let reader else {
            throw SourceReadError(
                .syntax, file: "<pattern>", line: 1, column: 1, message: "no language reads '\(name)' patterns",
                description: "<pattern>:1:1: no language reads '\(name)' patterns", runtime: name)
        }
        return try reader.lowerPattern(text)
    }
}
