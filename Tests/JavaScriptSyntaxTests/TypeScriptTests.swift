import Testing

@testable import JavaScriptSyntax

/// TypeScript 5: declarations, annotations, generics, type forms and the expression wrappers.
@Suite struct TypeScriptTests {
    @Test func expressionWrappersKeepTheInnerExpression() throws {
        #expect(try expression("a as B", "t.ts") == "(asExpression (identifier a) (typeReference B _))")
        #expect(try expression("a satisfies B", "t.ts") == "(satisfiesExpression (identifier a) (typeReference B _))")
        #expect(try expression("[1] as const", "t.ts") == "(asExpression (array (number 1)) (typeReference const _))")
        #expect(try expression("a!.b", "t.ts") == "(member . (nonNull (identifier a)) (identifier b))")
        #expect(
            try expression("<Foo>bar.baz", "t.ts") == "(typeAssertion (typeReference Foo _) (member . (identifier bar) (identifier baz)))")
        #expect(try expression("f<string>", "t.ts") == "(instantiation (identifier f) (typeArguments (typeReference string _)))")
        #expect(
            try expression("new Map<string, number>()", "t.ts")
                == "(new (identifier Map) (typeArguments (typeReference string _) (typeReference number _)) (arguments))")
    }

    @Test func nestJSDecoratorsAreNodes() throws {
        let source = """
            @Controller('users')
            export class UsersController {
              constructor(private readonly users: UsersService) {}
              @Get(':id')
              @UseGuards(AuthGuard)
              find(@Param('id') id: string, @Body() dto: UpdateDto): Promise<User> { return this.users.find(id) }
            }
            """
        let root = try program(source, "users.controller.ts")
        let export = root.children[0]
        #expect(export.kind == .exportDeclaration)
        let decorators = export.range.start.line == 1 ? export.children[0].children[0] : JSNode(.empty, range: export.range)
        #expect(decorators.sexpr == "(decorators (decorator (call (identifier Controller) _ (arguments (string \"users\")))))")
        let methods = nodes(root, .method)
        #expect(methods.map(\.text) == ["constructor", "find"])
        #expect(methods[0].children[4].children[0].children[1].sexpr == "(modifiers (modifier private) (modifier readonly))")
        let find = methods[1]
        #expect(
            find.children[0].sexpr
                == "(decorators (decorator (call (identifier Get) _ (arguments (string \":id\")))) (decorator (call (identifier UseGuards) _ (arguments (identifier AuthGuard)))))"
        )
        let parameters = find.children[4].children
        #expect(parameters[0].children[0].sexpr == "(decorators (decorator (call (identifier Param) _ (arguments (string \"id\")))))")
        #expect(parameters[1].children[0].sexpr == "(decorators (decorator (call (identifier Body) _ (arguments))))")
        #expect(parameters[1].children[2].sexpr == "(identifier dto)")
        #expect(find.children[5].sexpr == "(typeReference Promise (typeArguments (typeReference User _)))")
    }

    @Test func interfacesTypeAliasesAndSignatures() throws {
        let interface = try statement(
            "interface I<T = any> extends J, K<T> { a?: number; readonly b: string; (x: number): string; new (): I; [key: string]: unknown; m<U>(u: U): void }",
            "t.ts")
        #expect(
            interface.hasPrefix(
                "(interfaceDeclaration I (modifiers) (identifier I) (typeParameters (typeParameter T (modifiers) _ (typeReference any _))) (heritage (typeReference J _) (typeReference K (typeArguments (typeReference T _)))) (objectType (propertySignature a (modifiers (modifier ?)) (identifier a) (typeReference number _))"
            ))
        #expect(interface.contains("(callSignature _ (parameters"))
        #expect(interface.contains("(constructSignature _ (parameters) (typeReference I _))"))
        #expect(interface.contains("(indexSignature key (modifiers) (typeReference string _) (typeReference unknown _))"))
        #expect(interface.contains("(methodSignature m (modifiers) (identifier m) (typeParameters (typeParameter U"))
    }

    @Test func conditionalMappedTemplateAndInferTypes() throws {
        #expect(
            try statement("type A<T> = T extends (infer U)[] ? U : never", "t.ts")
                == "(typeAlias A (modifiers) (identifier A) (typeParameters (typeParameter T (modifiers) _ _)) (conditionalType (typeReference T _) (arrayType (parenthesizedType (inferType U _))) (typeReference U _) (typeReference never _)))"
        )
        #expect(
            try statement("type M<T> = { readonly [K in keyof T as `get${K}`]-?: T[K] }", "t.ts")
                == "(typeAlias M (modifiers) (identifier M) (typeParameters (typeParameter T (modifiers) _ _)) (mappedType K (modifiers (modifier readonly) (modifier -?)) (typeOperator keyof (typeReference T _)) (templateLiteralType (templateElement \"get\") (typeReference K _) (templateElement \"\")) (indexedAccessType (typeReference T _) (typeReference K _))))"
        )
        #expect(try statement("declare const s: unique symbol", "t.ts").contains("(typeOperator unique (typeReference symbol _))"))
        #expect(
            try statement("type F = new (...a: any[]) => object | ((x: number) => void)[]", "t.ts").contains(
                "(functionType new (modifiers) _ (parameters"))
        #expect(
            try statement("type L = 'a' | -1 | `x${string}` | typeof import('./m').Z<T>", "t.ts").contains(
                "(typeQuery (importType Z (string \"./m\") (typeArguments (typeReference T _))) _)"))
    }

    @Test func enumsNamespacesAndAmbientDeclarations() throws {
        let root = try program(
            """
            enum E { A = 1, B, 'C' }
            const enum F { X }
            declare module 'foo' { export function f(): void; }
            declare module '*.css';
            namespace N.M { export const k = 1 }
            declare global { interface Window { x: number } }
            declare function g(a: string): void;
            export declare abstract class Q { abstract m(): void }
            """, "t.ts")
        #expect(
            root.children[0].sexpr
                == "(enumDeclaration E (modifiers) (identifier E) (enumMember (identifier A) (number 1)) (enumMember (identifier B) _) (enumMember (string \"C\") _))"
        )
        #expect(root.children[1].children[0].sexpr == "(modifiers (modifier const))")
        #expect(
            root.children[2].sexpr.hasPrefix(
                "(moduleDeclaration module (modifiers (modifier declare)) (string \"foo\") (block (exportDeclaration (functionDeclaration f"
            ))
        #expect(root.children[3].sexpr == "(moduleDeclaration module (modifiers (modifier declare)) (string \"*.css\") _)")
        #expect(
            root.children[4].sexpr.hasPrefix("(moduleDeclaration namespace (modifiers) (member . (identifier N) (identifier M)) (block"))
        #expect(
            root.children[5].sexpr.hasPrefix(
                "(moduleDeclaration global (modifiers (modifier declare)) (identifier global) (block (interfaceDeclaration Window"))
        #expect(root.children[6].kind == .functionDeclaration && root.children[6].children[5].isEmpty)
        #expect(root.children[7].sexpr.contains("(modifiers (modifier declare) (modifier abstract))"))
    }

    @Test func classMembersModifiersAndParameterProperties() throws {
        let body = try program(
            "abstract class C<T> implements I { private x!: number; static readonly y?: string = 'a'; protected abstract z: T; override m(this: C<T>, ...r: number[]): asserts r is number[] {} constructor(public a: A, b = 1) { super() } }",
            "t.ts"
        ).children[0]
        #expect(body.children[1].sexpr == "(modifiers (modifier abstract))")
        #expect(body.children[6].sexpr == "(heritage (typeReference I _))")
        let members = body.children[7].children
        #expect(
            members[0].sexpr
                == "(property x (decorators) (modifiers (modifier private) (modifier !)) (identifier x) (typeReference number _) _)")
        #expect(members[1].children[1].sexpr == "(modifiers (modifier static) (modifier readonly) (modifier ?))")
        #expect(members[3].children[4].children[0].children[2].sexpr == "(this)")
        #expect(members[3].children[5].sexpr == "(typePredicate asserts (identifier r) (arrayType (typeReference number _)))")
        #expect(members[4].children[4].children[0].children[1].sexpr == "(modifiers (modifier public))")
    }

    @Test func overloadsAndOptionalParameters() throws {
        let root = try program("function f(a: string): void;\nfunction f(a?: any, b?: number) {}", "t.ts")
        #expect(root.children.map { $0.children[5].isEmpty } == [true, false])
        #expect(root.children[1].children[3].children[0].children[1].sexpr == "(modifiers (modifier ?))")
    }

    @Test func typeOnlyImportsExportsAndCommonJSForms() throws {
        let root = try program(
            """
            import type { A } from './a';
            import { type B, C } from './b';
            import type D from './d';
            import fs = require('fs');
            export type { E } from './e';
            export = fs;
            export as namespace Lib;
            import type from './t';
            """, "t.ts")
        #expect(root.children[0].text == "type")
        #expect(root.children[1].sexpr.contains("(importSpecifier type (identifier B) (identifier B)) (importSpecifier (identifier C)"))
        #expect(root.children[2].text == "type")
        #expect(root.children[3].sexpr == "(importEquals fs (identifier fs) (externalModuleReference (string \"fs\")))")
        #expect(root.children[4].text == "type")
        #expect(root.children[5].sexpr == "(exportAssignment (identifier fs))")
        #expect(root.children[6].sexpr == "(exportNamespace Lib)")
        #expect(root.children[7].sexpr == "(importDeclaration (importClause (importDefault type (identifier type))) (string \"./t\") _)")
    }

    @Test func genericArrowsAndCallsAndDefiniteAssignment() throws {
        #expect(
            try statement("let x!: number", "t.ts")
                == "(variableDeclaration let (variableDeclarator ! (identifier x) (typeReference number _) _))")
        #expect(
            try expression("async <T,>(x: T): Promise<T> => x", "t.tsx").hasPrefix(
                "(arrowFunction (modifiers (modifier async)) (typeParameters (typeParameter T (modifiers) _ _)) (parameters"))
        #expect(
            try expression("a?.b<T>()", "t.ts")
                == "(call (member ?. (identifier a) (identifier b)) (typeArguments (typeReference T _)) (arguments))")
    }

    @Test func aSamplerOfTrickyTypeScriptParses() throws {
        let source = """
            const x = y as any as T[];
            for (const x of <any[]>y) {}
            let f: (a: number) => void = () => {};
            function g<const T extends readonly unknown[]>(x: T) {}
            let a = b < c, d = e > f;
            if (a < b || c > d) {}
            h(a < b, c > (d));
            declare module "x" { const y: number; export default y; }
            abstract class Q { abstract get x(): number; static [k: string]: any; constructor(); constructor(a?: any) {} declare readonly z: number }
            export default abstract class {}
            let v = <const>["a"];
            type A = typeof x[number];
            type F = { (x: number): string }['call'];
            import type { default as X } from 'y';
            export type { T as default };
            enum E { A = -1 }
            let arr: Array<Array<number>>= [];
            a >>= 1; q = y >> z >>> 2;
            let o = { a: <T,>(x: T) => x };
            class G<in out T> {}
            function assertIsString(val: any): asserts val is string {}
            type Getters<T> = { [K in keyof T as `get${Capitalize<string & K>}`]: () => T[K] };
            let fn = function <T>(this: Window, x: T): T { return x; };
            let tuple: readonly [x: number, y?: string] = [1];
            type U = A extends B ? C extends D ? 1 : 2 : 3;
            label: { break label; }
            let big = 123_456n ** 2n;
            try {} catch (e: unknown) {}
            """
        let root = try program(source, "sampler.ts")
        #expect(root.children.count == 29)
        // `a < b, c > (d)` in arguments is a generic call, as TypeScript reads it.
        #expect(root.children[6].sexpr.contains("(call (identifier a) (typeArguments (typeReference b _) (typeReference c _))"))
        #expect(root.children[4].sexpr.contains("(binary < (identifier b) (identifier c))"))
        #expect(root.children[16].sexpr.contains("(array)"))
        #expect(root.children[24].sexpr.contains("(typeOperator readonly (tupleType"))
    }
}
