import Foundation
import JavaScriptLowering
import JavaScriptSyntax
import PythonSyntax
import SyntaxTree
import Testing

/// The lowering is total: every kind of JavaScript node, every snippet the parser's tests parse,
/// lowers without trapping, and Python's printer copes with the result.
@Suite struct TotalityTests {
    /// Snippets that together hold every ``JSNodeKind`` (the first test checks it).
    static let corpus: [(source: String, file: String)] = [
        (
            """
            #!/usr/bin/env node
            'use strict';
            import d, { a as b, default as z, 's-t' as u } from 'm' with { type: 'json' };
            import * as ns from 'n';
            export { b as c };
            export * as all from 'o';
            export default class {}
            export const e = 1;
            var v = [1, , ...w], o = { k, [c]: 2, ...o2, get g() { return 1; }, m() {} };
            lbl: for (let i = 0; i < 10; i++) { if (i) continue lbl; else break lbl; }
            for (const k in o) {} for (const [x] of w) {} for (x.y of w);
            while (0) { do {} while (0); }
            switch (v) { case 1: break; default: }
            try { throw new Error(`x${v}y`); } catch ({ message }) {} finally { debugger; }
            with (o) {}
            ;
            function* gen(a = 1, ...rest) { yield; yield* rest; }
            async function af() { await af(); const { p = 1, q: { r }, ...s } = o; [a, b] = [b, a]; }
            const arrow = async (x) => x?.y?.[0]?.(this, super.x, new.target, import.meta, import('m'));
            class C extends Base { #p = 1; static s; static { C.s = 2; } constructor() { super(); } get #q() { return this.#p; } }
            const ce = class Named {}; f(function () {});
            tag`a\\unicode${1}`;
            a = b ? c : (d, e); a += 1; a ??= 2; x++; --x; delete o.k; void 0; typeof t; !u; -u;
            a instanceof B && c in d || e ?? f;
            /re/gi; 10n; true; null; 1.5;
            """,
            "corpus.js"
        ),
        (
            """
            import type { T } from 't';
            import fs = require('fs');
            import Alias = NS.Inner;
            export = fs;
            export as namespace Lib;
            export type { T as U } from 't';
            interface I<K extends string = 'a'> extends J, L<K> { a?: number; m<U>(x: U): void; (): void; new (): I; [k: string]: any; readonly r: this; }
            type Alias2<T> = T extends (infer U)[] ? U : never;
            type M = { [K in keyof T as `x${K}`]?: T[K] } | [a: string, b?: number, ...c: boolean[]] | (new () => void) | typeof import('x').Y<T>;
            type Q = 'a' | 1 | -1 | unique symbol | readonly string[] | A & B | [string?] | [...T];
            type P = (x: unknown) => x is string;
            type R = (x: unknown) => asserts x;
            declare module 'mod' { export const z: number; }
            declare global { interface Window { a: 1 } }
            namespace A.B { export const c = 1; }
            enum E { A = 1, B }
            const enum F { X }
            abstract class K<T> implements I<T> { abstract m(): void; private constructor(public readonly a: T, @Inject() b?: string) { super(); } [key: string]: any; declare d: number; accessor e = 1; }
            function over(a: string): void;
            function over(a: any) { return <any>a as unknown satisfies object; }
            let n = x!, g = f<string>;
            function thisParam(this: Window, a: number) {}
            @Injectable() class S { @Input() x!: string; m(@Body() dto: Dto) {} }
            """,
            "corpus.ts"
        ),
        (
            """
            const el = <Foo.Bar a="1" b={x} {...p} c d:e="f" g=<i />>text &amp; {y} {/* c */} {...kids}<br /></Foo.Bar>;
            const fr = <>x</>;
            const gen = <T,>(x: T) => x;
            const elem = <Comp<string> prop={1} />;
            """,
            "corpus.tsx"
        ),
    ]

    @Test func corpusCoversEveryKindAndLowers() throws {
        var seen = Set<JSNodeKind>()
        for (source, file) in Self.corpus {
            let root = try JavaScriptParser.parse(source: source, fileName: file).root
            root.forEachNode { seen.insert($0.kind) }
            let module = JavaScriptLowering.lower(root)
            #expect(module.kind == .module)
            #expect(definitionsOutsideStatements(module).isEmpty, "a definition left in an expression in \(file)")
            _ = module.normalizedSource
        }
        // Kinds only a rule pattern has.
        let pattern = try JavaScriptParser.parsePattern(bytes: Array("f(...)".utf8), dialect: .javaScript)
        pattern.root.forEachNode { seen.insert($0.kind) }
        // A hostile or unusual tree is still total: every kind on its own, whatever its children.
        let missing = JSNodeKind.allCases.filter { !seen.contains($0) }
        #expect(missing.isEmpty, "not in the corpus: \(missing)")
    }

    @Test func everyKindAloneAndMalformedLowersWithoutTrapping() {
        let range = SourceRange(start: SourceLocation(line: 1, column: 1, offset: 0), end: SourceLocation(line: 1, column: 1, offset: 0))
        for kind in JSNodeKind.allCases {
            let bare = JSNode(kind, range: range)
            let odd = JSNode(kind, text: "x", children: [JSNode(.identifier, text: "y", range: range)], range: range)
            for node in [bare, odd] {
                let module = JavaScriptLowering.lowerOnCurrentThread(node)
                #expect(module.kind == .module)
                _ = module.normalizedSource
            }
        }
    }

    @Test func rangesAreTheJavaScriptNodes() throws {
        let root = try JavaScriptParser.parse(source: "f(a)\nx.y = 1", fileName: "a.js").root
        let module = JavaScriptLowering.lower(root)
        #expect(module.range == root.range)
        #expect(module.children[0].range == root.children[0].range)
        let call = module.children[0].children[0]
        #expect(call.range == root.children[0].children[0].range)
        #expect(module.children[1].children[0].range.start.line == 2)
    }

    @Test func deepChainsLower() throws {
        let source = Array(repeating: "a", count: 3000).joined(separator: " + ")
        let module = try lowered(source)
        #expect(module.children.count == 1)
    }

    /// Every snippet in the parser's tests (the string literals its helpers are called with) that
    /// parses, as JavaScript, TypeScript or TSX, lowers and prints.
    @Test func parserTestSnippetsLower() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("JavaScriptSyntaxTests")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        var lowered = 0
        for file in files {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            for snippet in Self.snippets(in: text) {
                for name in ["s.js", "s.ts", "s.tsx", "s.vue"] {
                    guard let program = try? JavaScriptParser.parse(source: snippet, fileName: name) else { continue }
                    let module = JavaScriptLowering.lower(program.root)
                    #expect(module.kind == .module)
                    #expect(definitionsOutsideStatements(module).isEmpty, "a definition left in an expression: \(snippet)")
                    _ = module.normalizedSource
                    lowered += 1
                }
            }
        }
        #expect(lowered > 100)
    }

    /// The plain `"..."` string literals of Swift source, with the common escapes decoded.
    static func snippets(in swift: String) -> [String] {
        var out: [String] = []
        var chars = Array(swift)
        chars.append("\n")
        var i = 0
        while i < chars.count {
            guard chars[i] == "\"", i == 0 || chars[i - 1] != "#" else {
                i += 1
                continue
            }
            var j = i + 1
            var value = ""
            var closed = false
            while j < chars.count, chars[j] != "\n" {
                if chars[j] == "\\", j + 1 < chars.count {
                    switch chars[j + 1] {
                    case "n": value.append("\n")
                    case "t": value.append("\t")
                    case "0": value.append("\0")
                    default: value.append(chars[j + 1])
                    }
                    j += 2
                    continue
                }
                if chars[j] == "\"" {
                    closed = true
                    break
                }
                value.append(chars[j])
                j += 1
            }
            if closed, !value.isEmpty { out.append(value) }
            i = j + 1
        }
        return out
    }
}
