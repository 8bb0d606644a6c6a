import SyntaxTree

/// A toy third language, defined here and nowhere under Sources (issue 77: a language is a
/// protocol implementation and a registration, not an edit of the engine).
///
/// A `.toy` file is lines of words: the first word is called with the others as arguments
/// (`exec "ls" user`); a quoted word is a string, any other a name (`$X` a metavariable in a
/// pattern); `#` starts a comment; `...` is the pattern's "anything". Every line is one
/// expression statement holding its call.
struct ToyLanguage: Language {
    var name: String { "toy" }
    var aliases: [String] { ["toylang"] }
    var fileExtensions: [String] { ["toy"] }
    func runsScripts(of interpreter: String) -> Bool { interpreter == "toyrun" }
    var patternSyntax: String { "toy" }

    func read(_ bytes: [UInt8], file: String) throws(SourceReadError) -> LoweredSource {
        let text = String(decoding: bytes, as: UTF8.self)
        var statements: [SyntaxNode] = []
        var offset = 0
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            defer { offset += line.utf8.count + 1 }
            let code = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = code.split(separator: " ")
            guard let callee = words.first else { continue }
            let range = SourceRange(
                start: SourceLocation(line: index + 1, column: 0, offset: offset),
                end: SourceLocation(line: index + 1, column: line.count, offset: offset + line.utf8.count))
            guard words.allSatisfy({ !$0.hasPrefix("\"") || ($0.count > 1 && $0.hasSuffix("\"")) }) else {
                throw SourceReadError(
                    .syntax, file: file, line: index + 1, column: 1, message: "unterminated string",
                    description: "\(file):\(index + 1):1: unterminated string", runtime: "toyrun")
            }
            let arguments = words.dropFirst().map { Self.word($0, range) }
            let call = SyntaxNode(.call, children: [SyntaxNode(.name, text: String(callee), range: range)] + arguments, range: range)
            statements.append(SyntaxNode(.exprStmt, children: [call], range: range))
        }
        let end = SourceLocation(line: max(1, statements.count), column: 0, offset: bytes.count)
        return LoweredSource(
            root: SyntaxNode(
                .module, children: statements, range: SourceRange(start: SourceLocation(line: 1, column: 0, offset: 0), end: end)))
    }

    func lowerPattern(_ text: String) throws(SourceReadError) -> SyntaxNode {
        let module = try read(PatternText.dedent(text), file: "<pattern>").root
        guard module.children.count == 1, let only = module.children[0].children.first else { return module }
        return only
    }

    /// One word: a string, `...`, or a name.
    private static func word(_ word: Substring, _ range: SourceRange) -> SyntaxNode {
        if word == "..." { return SyntaxNode(.ellipsis, range: range) }
        if word.hasPrefix("\"") {
            return SyntaxNode(.string, text: String(word.dropFirst().dropLast()), range: range, raw: String(word))
        }
        return SyntaxNode(.name, text: String(word), range: range)
    }

    var modules: ModuleConventions {
        ModuleConventions(
            namespace: "-toy", resolvesBySuffix: false, bareRelativeImportsNamePackages: false,
            callingModuleCallsDefaultExport: false, importsReadFromTree: true, preference: 0)
    }

    func module(ofFile file: String) -> SourceModule? {
        guard file.hasSuffix(".toy") else { return nil }
        return SourceModule(name: file.dropLast(4).split(separator: "/").joined(separator: "."), isPackage: false)
    }

    var receiverNames: Set<String> { [] }
    var hoisting: FunctionHoisting? { nil }
    var bindsImportedValuesToNames: Bool { false }
    var exportsUnderOtherNames: Bool { false }
}
