import JavaScriptLowering
import SyntaxTree
import Testing

/// Each row of the mapping table (JavaScriptLowering.swift's header).
@Suite struct MappingTests {
    @Test func literals() throws {
        #expect(
            try loweredExpression("[x, this, undefined, null, true, false, 's', 1, 0x10, 1.5, 10n, /a+/g, `t`]")
                == #"(list (name x) (name this) (none) (none) (true) (false) (string "s") (integer 1) (integer 16) (float 1.5) (integer 10) (string "a+") (string "t"))"#
        )
        let regex = nodes(try lowered("/a+/g"), .string)[0]
        #expect(regex.raw == "/a+/g")
        #expect(nodes(try lowered("'a\\n'"), .string)[0].raw == "'a\\n'")
        #expect(try loweredExpression("tag`a${b}`") == #"(call (name tag) (joinedStr (string "a") (formattedValue (name b) _)))"#)
    }

    @Test func callsAndMembers() throws {
        #expect(try loweredExpression("f(a, ...b)") == "(call (name f) (name a) (starred (name b)))")
        #expect(try loweredExpression("new C(x)") == "(call new (name C) (name x))")
        #expect(try loweredExpression("new C") == "(call new (name C))")
        #expect(try loweredExpression("a.b[c].#d") == "(attribute #d (subscript (attribute b (name a)) (name c)))")
        #expect(
            try loweredExpression("super.m(import.meta.url, new.target)")
                == "(call (attribute m (name super)) (attribute url (attribute meta (name import))) (attribute target (name new)))")
        #expect(try loweredExpression("import('m')") == #"(call (name import) (string "m"))"#)
    }

    @Test func operators() throws {
        #expect(try loweredExpression("a + b * c") == "(binOp + (name a) (binOp * (name b) (name c)))")
        #expect(try loweredExpression("a === b") == "(compare == (name a) (name b))")
        #expect(try loweredExpression("a !== b") == "(compare != (name a) (name b))")
        #expect(try loweredExpression("'k' in o") == #"(compare in (string "k") (name o))"#)
        #expect(try loweredExpression("a instanceof C") == "(call (name isinstance) (name a) (name C))")
        #expect(
            try loweredExpression("(a && b && c || d) ?? e")
                == "(boolOp or (boolOp and (name a) (name b) (name c)) (name d) (name e))")
        #expect(try loweredExpression("!a") == "(unaryOp not (name a))")
        #expect(try loweredExpression("typeof a") == "(unaryOp typeof (name a))")
        #expect(try loweredExpression("c ? a : b") == "(ifExp (name a) (name c) (name b))")
        #expect(try loweredExpression("f((a, b))") == "(call (name f) (tuple (name a) (name b)))")
        #expect(try loweredExpression("f(x = 1)") == "(call (name f) (namedExpr (name x) (integer 1)))")
        #expect(try loweredExpression("f(x += 1)") == "(call (name f) (namedExpr (name x) (binOp + (name x) (integer 1))))")
        #expect(try loweredExpression("f(i++)") == "(call (name f) (binOp + (name i) (integer 1)))")
        #expect(
            try lowering("async function* g() { await x; yield y; yield* z; }")[0].contains(
                "(exprStmt (await (name x))) (exprStmt (yield (name y))) (exprStmt (yieldFrom (name z)))"))
    }

    @Test func assignments() throws {
        #expect(
            try lowering("x = 1; a = b = c; x += 2; y ??= z; i++; --j; a(), b(); delete o.p") == [
                "(assign (name x) (integer 1))", "(assign (name a) (name b) (name c))", "(augAssign += (name x) (integer 2))",
                "(augAssign ??= (name y) (name z))", "(augAssign += (name i) (integer 1))", "(augAssign -= (name j) (integer 1))",
                "(exprStmt (call (name a)))", "(exprStmt (call (name b)))", "(delete (attribute p (name o)))",
            ])
        #expect(
            try lowering("let x; let y = 1; const z: T = 2", "a.ts") == [
                "(assign (name x) (none))", "(assign (name y) (integer 1))", "(annAssign (name z) (name T) (integer 2))",
            ])
        #expect(
            try lowering("const [a, , ...r] = o; const { b: c = 1, ...rest } = f()") == [
                "(assign (name a) (subscript (name o) (integer 0)))", "(assign (name r) (subscript (name o) (slice (integer 2) _ _)))",
                "(assign (name #tmp0) (call (name f)))", "(assign (name c) (boolOp or (attribute b (name #tmp0)) (integer 1)))",
                "(assign (name rest) (name #tmp0))",
            ])
        #expect(try lowering("({ a } = o)") == ["(assign (name a) (attribute a (name o)))"])
    }

    @Test func objectsAndArrays() throws {
        #expect(
            try lowering("({a: 1, b, [k]: v, ...o, 'q-r': 2, 3: 4, m() {}})") == [
                "(functionDef #fn0 (decorators) (typeParams) (parameters) _ (block))",
                #"(exprStmt (dict (keyValue (string "a") (integer 1)) (keyValue (string "b") (name b)) (keyValue (name k) (name v)) (doubleStarred (name o)) (keyValue (string "q-r") (integer 2)) (keyValue (integer 3) (integer 4)) (keyValue (string "m") (name #fn0))))"#,
            ])
        #expect(try loweredExpression("[a, , ...b]") == "(list (name a) (none) (starred (name b)))")
    }

    @Test func functions() throws {
        #expect(
            try lowering("function f(a, b = 1, ...r) { return a; }") == [
                "(functionDef f (decorators) (typeParams) (parameters (parameter a _ _) (parameter b _ (integer 1)) (varArgs r _)) _ (block (return (name a))))"
            ])
        #expect(
            try lowering("const g = async ({ id }, [x]) => id") == [
                "(asyncFunctionDef g (decorators) (typeParams) (parameters (parameter #arg0 _ _) (parameter #arg1 _ _)) _ (block (assign (name id) (attribute id (name #arg0))) (assign (name x) (subscript (name #arg1) (integer 0))) (return (name id))))"
            ])
        #expect(
            try lowering("function h<T>(x: T): Promise<T> {}", "a.ts") == [
                "(functionDef h (decorators) (typeParams (typeParam T _)) (parameters (parameter x (name T) _)) (subscript (name Promise) (name T)) (block))"
            ])
        #expect(try lowering("function o(a: string): void; function o(a) {}", "a.ts").count == 1)
        #expect(
            try lowering("f(function named() {})") == [
                "(functionDef #fn0 (decorators) (typeParams) (parameters) _ (block))", "(exprStmt (call (name f) (name #fn0)))",
            ])
    }

    @Test func controlFlow() throws {
        #expect(
            try lowering("if (a) b(); else if (c) d(); else { e(); }") == [
                "(if (name a) (block (exprStmt (call (name b)))) (block (if (name c) (block (exprStmt (call (name d)))) (block (exprStmt (call (name e)))))))"
            ])
        #expect(
            try lowering("for (let i = 0; i < n; i++) { f(i); }") == [
                "(assign (name i) (integer 0))",
                "(while (compare < (name i) (name n)) (block (exprStmt (call (name f) (name i))) (augAssign += (name i) (integer 1))) _)",
            ])
        #expect(try lowering("for (const k in o) f(k)") == ["(for (name k) (name o) (block (exprStmt (call (name f) (name k)))) _)"])
        #expect(try lowering("for (const x of xs) {}") == ["(for (name x) (name xs) (block) _)"])
        #expect(try lowering("async function f() { for await (const x of xs) {} }")[0].contains("(asyncFor (name x) (name xs) (block) _)"))
        #expect(
            try lowering("for (const [k, v] of m) {}") == [
                "(for (name #tmp0) (name m) (block (assign (name k) (subscript (name #tmp0) (integer 0))) (assign (name v) (subscript (name #tmp0) (integer 1)))) _)"
            ])
        #expect(try lowering("while (a) b()") == ["(while (name a) (block (exprStmt (call (name b)))) _)"])
        #expect(
            try lowering("do { a(); } while (b)") == [
                "(while (true) (block (exprStmt (call (name a))) (if (unaryOp not (name b)) (block (break)) _)) _)"
            ])
        #expect(try lowering("l: for (;;) { break l; continue; }") == ["(while (true) (block (break) (continue)) _)"])
        #expect(try lowering("{ a(); { b(); } }") == ["(exprStmt (call (name a)))", "(exprStmt (call (name b)))"])
        #expect(try lowering("throw new Error('x')") == [#"(raise (call new (name Error) (string "x")) _)"#])
        #expect(try lowering("function f() { return; }")[0].contains("(block (return))"))
    }

    @Test func switchIsAnIfChain() throws {
        #expect(
            try lowering("switch (d) { case 1: case 2: a(); break; default: c(); break; case 3: b(); }") == [
                "(if (boolOp or (compare == (name d) (integer 1)) (compare == (name d) (integer 2))) (block (exprStmt (call (name a)))) (block (if (compare == (name d) (integer 3)) (block (exprStmt (call (name b)))) (block (exprStmt (call (name c)))))))"
            ])
        #expect(try lowering("switch (d) { default: c(); }") == ["(exprStmt (call (name c)))"])
        #expect(try lowering("switch (d) {}") == ["(exprStmt (name d))"])
    }

    @Test func tryCatchFinally() throws {
        #expect(
            try lowering("try { a(); } catch (e) { b(e); } finally { c(); }") == [
                "(try (block (exprStmt (call (name a)))) (exceptHandler e _ (block (exprStmt (call (name b) (name e))))) _ (block (exprStmt (call (name c)))))"
            ])
        #expect(try lowering("try {} catch {}") == ["(try (block) (exceptHandler _ (block)) _ _)"])
        #expect(try lowering("try {} finally {}") == ["(try (block) _ (block))"])
    }

    @Test func exports() throws {
        #expect(try lowering("export const a = 1; export function f() {}")[0] == "(assign (name a) (integer 1))")
        #expect(try lowering("export default app") == ["(assign (name default) (name app))"])
        #expect(try lowering("export default function () {}") == ["(functionDef default (decorators) (typeParams) (parameters) _ (block))"])
        // A named default declaration keeps its name; the module's `default` is bound to it too.
        #expect(
            try lowering("export default function f() {}") == [
                "(functionDef f (decorators) (typeParams) (parameters) _ (block))", "(assign (name default) (name f))",
            ])
        #expect(
            try lowering("export default class C {}", "a.ts") == [
                "(classDef C (decorators) (typeParams) (arguments) (block))", "(assign (name default) (name C))",
            ])
        #expect(
            try lowering("export { a as b } from 'm'; export * from 'n'; export * as ns from 'o'; export { x }") == [
                "(importFrom m (alias a (name b)))", "(importFrom n (alias *))", "(import (alias o (name ns)))",
            ])
        #expect(try lowering("export = app", "a.ts") == ["(assign (attribute exports (name module)) (name app))"])
    }

    @Test func vueScriptBlocksLowerWithTheComponentsPositions() throws {
        let module = try lowered(
            "<template><p>{{ x }}</p></template>\n<script setup lang=\"ts\">\nconst x: string = props.x\n</script>", "a.vue")
        #expect(module.children.map(\.sexpr) == ["(annAssign (name x) (name string) (attribute x (name props)))"])
        #expect(module.children[0].range.start.line == 3)
    }

    @Test func typeScriptDeclarations() throws {
        let source = """
            interface I { a: string }
            type T = string | number;
            declare const g: number;
            declare function h(): void;
            declare module 'x' { export const y: number; }
            export type { I };
            enum E { A = 1, B, C = 'c', D }
            namespace N { export const z = 1; }
            abstract class K { abstract m(): void; n() {} }
            """
        #expect(
            try lowering(source, "a.ts") == [
                "(annAssign (name g) (name number) _)",
                #"(classDef E (decorators) (typeParams) (arguments) (block (assign (name A) (integer 1)) (assign (name B) (integer 2)) (assign (name C) (string "c")) (assign (name D) (none))))"#,
                "(assign (name z) (integer 1))",
                "(classDef K (decorators) (typeParams) (arguments) (block (functionDef n (decorators) (typeParams) (parameters (parameter this _ _)) _ (block))))",
            ])
        #expect(
            try lowering("let u: A.B | C[] | 'lit' = v", "a.ts") == [
                #"(annAssign (name u) (binOp | (binOp | (attribute B (name A)) (subscript (name Array) (name C))) (string "lit")) (name v))"#
            ])
    }
}
