import JavaScriptSyntax
import SyntaxTree

/// JavaScript or TypeScript as the engine reads it (issue 77, the language seam): parsed by
/// ``JavaScriptParser`` (the dialect from the file's name; Vue and Svelte `<script>` blocks in
/// place) and lowered into the shared tree by ``JavaScriptLowering``. The two share one front end:
/// TypeScript's grammar is JavaScript's superset, so a rule may name both, with one pattern.
public struct JavaScriptLanguage: Language {
    /// `.js`, `.mjs`, `.cjs`, `.jsx`, the `<script>` of `.vue` and `.svelte` files, and scripts
    /// run by `node`.
    public static let javaScript = JavaScriptLanguage(typeScript: false)
    /// `.ts`, `.mts`, `.cts`, `.tsx`, and scripts run by `deno`, `bun`, `ts-node` or `tsx`.
    public static let typeScript = JavaScriptLanguage(typeScript: true)

    /// Whether this is TypeScript.
    public let typeScript: Bool

    private init(typeScript: Bool) { self.typeScript = typeScript }

    /// `javascript` or `typescript`.
    public var name: String { typeScript ? "typescript" : "javascript" }
    /// `js` or `ts`, as Semgrep accepts them.
    public var aliases: [String] { typeScript ? ["ts"] : ["js"] }
    /// TypeScript's first: a module written as `foo.ts` and compiled to `foo.js` is the `.ts` file.
    public var fileExtensions: [String] { typeScript ? ["ts", "tsx", "mts", "cts"] : ["js", "jsx", "mjs", "cjs", "vue", "svelte"] }
    /// `node`/`nodejs` run JavaScript; `deno`, `bun`, `ts-node` and `tsx` TypeScript (whose grammar reads JavaScript too).
    public func runsScripts(of interpreter: String) -> Bool {
        let name = interpreter.lowercased()
        return typeScript ? ["deno", "bun", "ts-node", "tsx"].contains(name) : name == "node" || name == "nodejs"
    }
    /// JavaScript's front end, read as TSX: every JavaScript and TypeScript pattern.
    public var patternSyntax: String { "javascript" }

    /// Parsed in the dialect the file's name says, and lowered.
    public func read(_ bytes: [UInt8], file: String) throws(SourceReadError) -> LoweredSource {
        do {
            let program = try JavaScriptParser.parseOnCurrentThread(bytes: bytes, fileName: file)
            return LoweredSource(root: JavaScriptLowering.lowerOnCurrentThread(program.root))
        } catch let error as JavaScriptSyntaxError {
            throw Self.readError(error)
        } catch {
            throw Self.readError(
                JavaScriptSyntaxError(.unexpectedToken, file: file, line: 1, column: 1, message: "cannot parse: \(error)"))
        }
    }

    /// ``JavaScriptLowering/lowerPattern(_:dialect:)`` as TSX, which reads every JavaScript and
    /// TypeScript pattern; the error's description is ``JavaScriptPatternError``'s.
    public func lowerPattern(_ text: String) throws(SourceReadError) -> SyntaxNode {
        do {
            return try JavaScriptLowering.lowerPattern(text, dialect: .tsx)
        } catch let error as JavaScriptPatternError {
            var read = Self.readError(error.syntaxError)
            read.description = error.description
            read.underlying = error
            throw read
        } catch {
            throw Self.readError(
                JavaScriptSyntaxError(.unexpectedToken, file: "<pattern>", line: 1, column: 1, message: "cannot parse: \(error)"))
        }
    }

    /// A JavaScript error said as every language's: nesting, size and the ambiguity the parser
    /// gave up on are bounds (Node may run such a file), anything else a syntax error.
    public static func readError(_ error: JavaScriptSyntaxError) -> SourceReadError {
        let bound = [JavaScriptSyntaxError.Code.nestingTooDeep, .fileTooLarge, .tooAmbiguous].contains(error.code)
        return SourceReadError(
            bound ? .boundHit : .syntax, file: error.file, line: error.line, column: error.column, message: error.message,
            description: error.description, runtime: "Node", underlying: error)
    }

    /// A namespace of their own (`-js`: no Python module's name has a `-`, so no Python import
    /// reaches a JavaScript file, nor the reverse); a module only by its full name; imports read
    /// from the lowered tree; `require('..')` names a package; calling a module calls its default
    /// export; a call through a relative module is followed; TypeScript's file is the module
    /// before the JavaScript compiled from it.
    public var modules: ModuleConventions {
        ModuleConventions(
            namespace: "-js", resolvesBySuffix: false, bareRelativeImportsNamePackages: true,
            callingModuleCallsDefaultExport: true, importsReadFromTree: true, followsCallsThroughRelativeModules: true,
            preference: typeScript ? 0 : 1)
    }

    /// ``JavaScriptLowering/module(ofFile:)``.
    public func module(ofFile file: String) -> SourceModule? {
        JavaScriptLowering.module(ofFile: file).map { SourceModule(name: $0.name, isPackage: $0.isPackage) }
    }

    /// `this` (the lowering names an instance method's first parameter so); `self` and `cls` too:
    /// the receiver names are one set across the languages the engine reads.
    public var receiverNames: Set<String> { ["self", "cls", "this"] }
    /// Functions and classes written in expressions are hoisted into `#fnN` definitions before
    /// their statement; a module an expression imports into a `#tmpN`.
    public var hoisting: FunctionHoisting? {
        FunctionHoisting(
            definitionPrefix: JavaScriptLowering.hoistedPrefix, temporaryPrefix: JavaScriptLowering.temporaryPrefix,
            elementCallbackMethods: JavaScriptLowering.elementCallbackMethods)
    }
    /// `const run = cp.exec`, `globalThis.eval`: followed like imports.
    public var bindsImportedValuesToNames: Bool { true }
    /// `module.exports = {f: g}`, `exports.f = function`, `export default f`.
    public var exportsUnderOtherNames: Bool { true }
}
