import JavaScriptLowering
import Languages
import PythonSyntax
import Testing

@testable import SAST

/// The built-in languages through the seam (issue 77): one registry answers which files are
/// code and in which language, and the engine's language-dependent steps are the languages' answers.
@Suite("The language seam")
struct LanguageSeamTests {
    @Test("the registry lists Python, JavaScript and TypeScript in order, with every extension they had")
    func builtIns() {
        #expect(Array(Languages.registry.all.map(\.name).prefix(3)) == ["python", "javascript", "typescript"])
        let expected: Set<String> = [
            "py", "pyw", "pyi", "ipynb", "wsgi", "js", "mjs", "cjs", "jsx", "vue", "svelte", "ts", "mts", "cts", "tsx",
        ]
        #expect(expected.isSubset(of: Languages.fileExtensions))
        #expect(SourceLanguage.javaScriptFamilyExtensions == ["js", "mjs", "cjs", "jsx", "vue", "svelte", "ts", "mts", "cts", "tsx"])
    }

    @Test(
        "a file's language by its name, a script's by its interpreter, a rule's by name or alias",
        arguments: [
            ("app.py", "python"), ("app.WSGI", "python"), ("nb.ipynb", "python"), ("a/b.mjs", "javascript"),
            ("C.vue", "javascript"), ("x.tsx", "typescript"), ("d.cts", "typescript"),
        ])
    func byName(file: String, language: String) {
        #expect(SourceLanguage(fileName: file)?.name == language)
    }

    @Test func namesThatAreNoLanguage() {
        #expect(SourceLanguage(fileName: "Makefile") == nil)
        #expect(SourceLanguage(fileName: "app.") == nil)
        #expect(SourceLanguage(fileName: "dir.py/run") == nil)
        #expect(SourceLanguage(interpreter: "python3.12") == .python)
        #expect(SourceLanguage(interpreter: "nodejs") == .javascript)
        #expect(SourceLanguage(interpreter: "ts-node") == .typescript)
        #expect(SourceLanguage(interpreter: "bash") == nil)
        #expect(SourceLanguage(ruleName: "JS") == .javascript)
        #expect(SourceLanguage(ruleName: "ts")?.patternSyntax == SourceLanguage.javascript.patternSyntax)
        #expect(SourceLanguage(ruleName: "cobol") == nil)
    }

    @Test("each language names its files' modules in its own namespace, packages by its own rule")
    func modules() {
        #expect(LanguageModules.name(of: "routes/users.js", rootPackage: "app") == "-js.routes.users")
        #expect(LanguageModules.name(of: "index.ts", rootPackage: nil) == "-js")
        #expect(LanguageModules.name(of: "pkg/mod.py", rootPackage: "app") == "app.pkg.mod")
        #expect(LanguageModules.name(of: "__init__.py", rootPackage: nil) == nil)
        #expect(LanguageModules.name(of: "bin/serve", rootPackage: nil) == "bin.serve")
        #expect(LanguageModules.isPackage("pkg/__init__.py") && LanguageModules.isPackage("db/index.ts"))
        #expect(!LanguageModules.isPackage("db/users.ts"))
        #expect(LanguageModules.preferred("foo.ts", over: "foo.js") && !LanguageModules.preferred("foo.js", over: "foo.ts"))
        #expect(LanguageModules.preferred("foo.js", over: "foo/index.ts"))
        #expect(LanguageModules.isNamespaced("-js.db") && !LanguageModules.isNamespaced("app.db"))
    }

    @Test("a bound the parser hit is the file-not-analysed finding naming the language's runtime")
    func boundFindings() throws {
        let engine = SASTEngine(rules: try RuleSet(rules: []))
        let python = engine.scan(
            file: "deep.py", source: "x = " + String(repeating: "(", count: 400) + String(repeating: ")", count: 400) + "\n")
        #expect(python.findings.map(\.ruleId) == [ParserBoundFinding.descriptor.id])
        #expect(python.findings.first?.message.hasSuffix("Python may still run this file") == true)
        let javaScript = engine.scan(
            file: "deep.js", source: "x = " + String(repeating: "[", count: 2000) + String(repeating: "]", count: 2000) + ";\n")
        #expect(javaScript.findings.map(\.ruleId) == [ParserBoundFinding.descriptor.id])
        #expect(javaScript.findings.first?.message.hasSuffix("Node may still run this file") == true)
    }

    @Test("the hoisting and receivers the engine follows are the languages' own")
    func capabilities() {
        #expect(PythonLanguage().hoisting == nil)
        #expect(JavaScriptLanguage.typeScript.hoisting?.isHoistedDefinition(JavaScriptLowering.hoistedPrefix + "3") == true)
        #expect(Receivers.names == ["self", "cls", "this"])
    }
}
