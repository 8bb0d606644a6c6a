import Testing

@testable import JavaScriptSyntax

/// ES2015-2024 syntax: each construct's tree, not only that it parses.
@Suite struct ModernSyntaxTests {
    @Test func hashbangIsSkipped() throws {
        #expect(try program("#!/usr/bin/env node\nx").children.map(\.sexpr) == ["(expressionStatement (identifier x))"])
    }

    @Test func numbersAreDecodedWithSeparatorsAndBigInt() throws {
        let values = nodes(try program("[1_000, 0x1F, 0o17, 0b101, .5, 1e3, 017, 10n, 0xFFn]"), .number).map { $0.text ?? "" }
        #expect(values == ["1000", "31", "15", "5", "0.5", "1000", "15"])
        let bigints = nodes(try program("[10n, 1_0n]"), .bigint)
        #expect(bigints.map(\.text) == ["10", "10"] && bigints.map(\.raw) == ["10n", "1_0n"])
        #expect(rejection("1__0")?.code == .invalidNumber)
        #expect(rejection("1_")?.code == .invalidNumber)
        #expect(rejection("3in x")?.code == .invalidNumber)
    }

    @Test func stringsAreDecoded() throws {
        let strings = nodes(try program(#"['a\n', "\x41\u0042\u{43}", 'd\'e', "\uD83D\uDE00", 'line\\#ncont']"#), .string)
        #expect(strings.map(\.text) == ["a\n", "ABC", "d'e", "😀", "linecont"])
        #expect(strings[0].raw == "'a\\n'")
    }

    @Test func templatesNestSubstitutions() throws {
        #expect(
            try expression("`a${b}c${`d${e}`}`")
                == "(templateLiteral (templateElement \"a\") (identifier b) (templateElement \"c\") (templateLiteral (templateElement \"d\") (identifier e) (templateElement \"\")) (templateElement \"\"))"
        )
        #expect(
            try expression("tag`x${y}`")
                == "(taggedTemplate (identifier tag) _ (templateLiteral (templateElement \"x\") (identifier y) (templateElement \"\")))")
        // An invalid escape is allowed in a tagged template only; its cooked value is absent.
        #expect(try expression("t`\\unicode`").contains("(templateElement)"))
        #expect(rejection("`\\unicode`")?.code == .invalidEscape)
        #expect(try expression("`${ {a: 1}.a }`").contains("(member . (object"))
    }

    @Test func unicodeEscapesInIdentifiers() throws {
        #expect(try expression("\\u0061b + \\u{62}") == "(binary + (identifier ab) (identifier b))")
        #expect(try expression("café") == "(identifier café)")
    }

    @Test func optionalChainingAndLogicalAssignment() throws {
        #expect(
            try expression("a?.b?.[c]?.(d)")
                == "(call ?. (index ?. (member ?. (identifier a) (identifier b)) (identifier c)) _ (arguments (identifier d)))")
        #expect(try expression("a ??= b") == "(assignment ??= (identifier a) (identifier b))")
        #expect(try expression("a ||= b &&= c") == "(assignment ||= (identifier a) (assignment &&= (identifier b) (identifier c)))")
        #expect(try expression("a ?? b") == "(logical ?? (identifier a) (identifier b))")
        #expect(try expression("x ? .5 : 1") == "(conditional (identifier x) (number 0.5) (number 1))")
        #expect(try expression("a >>>= 2") == "(assignment >>>= (identifier a) (number 2))")
        #expect(try expression("a >> b >= c") == "(binary >= (binary >> (identifier a) (identifier b)) (identifier c))")
        #expect(try expression("2 ** 3 ** 2") == "(binary ** (number 2) (binary ** (number 3) (number 2)))")
    }

    @Test func classesWithFieldsPrivateNamesStaticBlocksAndAccessors() throws {
        let source =
            "class A extends B { #x = 1; static y; static { init() } get #g() { return this.#x } set v(a) {} static async *gen() {} accessor z; #m() { return #x in this } }"
        let body = try program(source).children[0].children[7]
        #expect(body.children.map(\.kind) == [.property, .property, .staticBlock, .method, .method, .method, .property, .method])
        #expect(body.children[0].sexpr == "(property #x (decorators) (modifiers) (privateName #x) _ (number 1))")
        #expect(body.children[3].children[1].sexpr == "(modifiers (modifier get))")
        #expect(body.children[5].children[1].sexpr == "(modifiers (modifier static) (modifier async) (modifier *))")
        #expect(body.children[6].children[1].sexpr == "(modifiers (modifier accessor))")
        #expect(body.children[7].sexpr.contains("(binary in (privateName #x) (this))"))
    }

    @Test func generatorsAndAsyncFunctions() throws {
        let function = try program("async function* f() { yield* g(); yield; await x; for await (const a of b) {} }").children[0]
        #expect(function.children[0].sexpr == "(modifiers (modifier async) (modifier *))")
        #expect(
            function.children[5].sexpr
                == "(block (expressionStatement (yield * (call (identifier g) _ (arguments)))) (expressionStatement (yield _)) (expressionStatement (await (identifier x))) (forOf await (variableDeclaration const (variableDeclarator (identifier a) _ _)) (identifier b) (block)))"
        )
    }

    @Test func destructuringWithDefaultsAndSpread() throws {
        #expect(
            try statement("const { a = 1, b: { c }, ...rest } = o")
                == "(variableDeclaration const (variableDeclarator (objectPattern (objectProperty shorthand (identifier a) (assignmentPattern (identifier a) (number 1))) (objectProperty (identifier b) (objectPattern (objectProperty shorthand (identifier c) (identifier c)))) (restElement (identifier rest))) _ (identifier o)))"
        )
        #expect(
            try expression("[a, , b = 2, ...c] = d")
                == "(assignment = (arrayPattern (identifier a) (elision) (assignmentPattern (identifier b) (number 2)) (restElement (identifier c))) (identifier d))"
        )
        #expect(
            try expression("f(...a, ...[b])")
                == "(call (identifier f) _ (arguments (spread (identifier a)) (spread (array (identifier b)))))")
        #expect(rejection("[a + b] = c")?.code == .invalidTarget)
        #expect(rejection("a + b = c")?.code == .invalidTarget)
    }

    @Test func labelledStatementsAndControlFlow() throws {
        let root = try program(
            "outer: for (let i = 0; i < n; i++) { inner: for (const k in o) { if (k) continue outer; else break inner } }")
        #expect(root.children[0].kind == .labeled && root.children[0].text == "outer")
        #expect(nodes(root, .continue).first?.text == "outer")
        #expect(nodes(root, .break).first?.text == "inner")
        let switchNode = try statement("switch (x) { case 1: a(); break; default: b() }")
        #expect(switchNode.hasPrefix("(switch (identifier x) (switchCase (number 1) (block (expressionStatement"))
        #expect(
            try statement("try { a() } catch { b() } finally { c() }")
                == "(try (block (expressionStatement (call (identifier a) _ (arguments)))) (catchClause _ _ (block (expressionStatement (call (identifier b) _ (arguments))))) (block (expressionStatement (call (identifier c) _ (arguments)))))"
        )
    }

    @Test func objectLiteralAccessorsAndMethods() throws {
        let object = try expression("({ get a() { return 1 }, set a(v) {}, async *g() {}, [k]: 1, 'q': 2, s, ...r })")
        #expect(object.contains("(method a (decorators) (modifiers (modifier get)) (identifier a) _ (parameters) _"))
        #expect(object.contains("(method a (decorators) (modifiers (modifier set))"))
        #expect(object.contains("(method g (decorators) (modifiers (modifier async) (modifier *))"))
        #expect(object.contains("(objectProperty (computedKey (identifier k)) (number 1))"))
        #expect(object.contains("(spread (identifier r))"))
    }

    @Test func importsInEveryForm() throws {
        let root = try program(
            """
            import 'side';
            import d from 'a';
            import d2, { x as y, default as z, "s-t" as u } from 'b';
            import * as ns from 'c';
            import j from './j.json' with { type: 'json' };
            const m = await import('./m', { with: { type: 'json' } });
            console.log(import.meta.url);
            """)
        #expect(root.children[0].sexpr == "(importDeclaration _ (string \"side\") _)")
        #expect(root.children[1].sexpr == "(importDeclaration (importClause (importDefault d (identifier d))) (string \"a\") _)")
        #expect(
            root.children[2].sexpr
                == "(importDeclaration (importClause (importDefault d2 (identifier d2)) (importSpecifier (identifier x) (identifier y)) (importSpecifier (identifier default) (identifier z)) (importSpecifier (string \"s-t\") (identifier u))) (string \"b\") _)"
        )
        #expect(root.children[3].sexpr == "(importDeclaration (importClause (importNamespace ns (identifier ns))) (string \"c\") _)")
        #expect(root.children[4].children[2].kind == .importAttributes)
        #expect(nodes(root, .importCall).count == 1)
        #expect(nodes(root, .metaProperty).first?.text == "import.meta")
    }

    @Test func exportsInEveryForm() throws {
        let root = try program(
            """
            export const a = 1;
            export function f() {}
            export default class {}
            export { a as b, c };
            export * from 'x';
            export * as ns from 'y';
            export { default } from 'z';
            export async function g() {}
            """)
        #expect(
            root.children.map(\.kind) == [
                .exportDeclaration, .exportDeclaration, .exportDefault, .exportNamed, .exportAll, .exportAll, .exportNamed,
                .exportDeclaration,
            ])
        #expect(
            root.children[3].sexpr
                == "(exportNamed (exportSpecifier (identifier a) (identifier b)) (exportSpecifier (identifier c) (identifier c)) _ _)")
        #expect(root.children[5].sexpr == "(exportAll (identifier ns) (string \"y\") _)")
        #expect(rejection("export a") != nil)
    }
}
