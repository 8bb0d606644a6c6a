// JavaScript/TypeScript → the generic tree (issue 60, DESIGN §1b).
//
// The JavaScript front end's tree (`JSNode`) is lowered into the tree the SAST engine already works
// on (`SyntaxNode`, the shape of a generic AST), so that the matcher, dataflow, taint and route models run
// on JavaScript unchanged. Ranges are the JavaScript nodes' own; a node made up by the lowering (a
// temporary, an implied `this` parameter, a `staticmethod` decorator) takes the range of the construct
// it stands for. The table below is what a rule author needs: a JavaScript construct on the left, the
// generic node (as `SyntaxNode.sexpr` prints it) on the right.
//
// | JavaScript / TypeScript                  | Generic tree                                                        |
// |------------------------------------------|---------------------------------------------------------------------|
// | `x`, `this`, `super`                     | `(name x)`, `(name this)`, `(name super)`                           |
// | `undefined`, `null`                      | `(none)`                                                            |
// | `true`, `false`                          | `(true)`, `(false)`                                                 |
// | `'s'`, `/re/g`                           | `(string "s")` (`raw` the source, flags included for a regex)       |
// | `1`, `0x10`, `10n`, `1.5`                | `(integer 1)`, `(integer 16)`, `(integer 10)`, `(float 1.5)`       |
// | `` `a${b}` ``                            | `(joinedStr (string "a") (formattedValue (name b) _))`              |
// | `` `plain` ``                            | `(string "plain")`                                                  |
// | `` tag`a${b}` ``                         | `(call (name tag) (joinedStr ...))`                                 |
// | `f(a, ...b)`, `a?.()`                    | `(call (name f) (name a) (starred (name b)))`                       |
// | `new C(x)`                               | `(call new (name C) (name x))`: text `new` (a pattern `C(...)` does not match it) |
// | `a.b`, `a?.b`, `a.#p`                    | `(attribute b (name a))`, `(attribute #p (name a))`                 |
// | `a[i]`, `a?.[i]`                         | `(subscript (name a) (name i))`                                     |
// | `a['b']`, `` a[`b`] ``                   | `(attribute b (name a))`: a property named by a literal is the property (issue 76) |
// | `a + b`, `a >>> b`, `a ** b`             | `(binOp + ...)` (the JavaScript operator as text)                   |
// | `a === b`, `a != b`, `a in b`            | `(compare == ...)` (`===`→`==`, `!==`→`!=`), `(compare in ...)`      |
// | `a instanceof C`                         | `(call (name isinstance) (name a) (name C))`                        |
// | `a && b`, `a \|\| b`, `a ?? b`           | `(boolOp and ...)`, `(boolOp or ...)`, `(boolOp or ...)` (flattened)|
// | `!a`, `-a`, `typeof a`, `void a`         | `(unaryOp not ...)`, `(unaryOp - ...)`, `(unaryOp typeof ...)`, `(unaryOp void ...)` |
// | `delete a.b;`                            | `(delete (attribute b (name a)))` (in an expression: `unaryOp delete`) |
// | `c ? a : b`                              | `(ifExp a c b)`                                                     |
// | `a, b` (statement / expression)          | one `exprStmt` each / `(tuple a b)`                                 |
// | `await x`, `yield x`, `yield* x`         | `(await x)`, `(yield x)`, `(yieldFrom x)`                           |
// | `x as T`, `x satisfies T`, `x!`, `<T>x`, `f<T>`, `(x)` | `x`                                                   |
// | `new.target`, `import.meta`              | `(attribute target (name new))`, `(attribute meta (name import))`   |
// | `import('m')`                            | `(call (name import) (string "m"))`                                 |
// | `require('m')`, `await import('m')` inside an expression | `(name #tmp0)`, after a hoisted `(import (alias m (name #tmp0)))`: `require('child_process').exec(c)` is `child_process.exec(c)` to the import aliases |
// | `import('m').then((cp) => ...)`, `.then(({exec}) => ...)` | the hoisted callback's body opens with `(import (alias m (name cp)))` (`#arg0` for a pattern, then its destructuring) |
// | `(0, f)(x)` (leading parts inert)        | `(call (name f) (name x))`: the comma expression's value            |
// | `f.call(t, a)`, `f.apply(t, [a])`, `f.apply(t, l)`, `Reflect.apply(f, t, [a])` | `(call (name f) (name a))`, `(call (name f) (starred (name l)))`, when `t` is inert (a literal, a name, a member chain) |
// | `C.prototype.m.call(t, a)`               | `(call (attribute m (name t)) (name a))`                            |
// | `{a: 1, b, [k]: v, ...o, m() {}}`        | `(dict (keyValue (string "a") (integer 1)) (keyValue (string "b") (name b)) (keyValue (name k) (name v)) (doubleStarred (name o)) (keyValue (string "m") (name #fn0)))`, after the method's hoisted `(functionDef #fn0 ...)`; `m: function () {}` alike |
// | `[a, , ...b]`                            | `(list (name a) (none) (starred (name b)))`                         |
// | `x = v;`, `a = b = v;`                   | `(assign (name x) v)`, `(assign (name a) (name b) v)`               |
// | `x += v;`, `x ??= v;`, `x++;`            | `(augAssign += ...)`, `(augAssign ??= ...)`, `(augAssign += (name x) (integer 1))` |
// | `f(x = v)`, `f(x += v)`, `f(x++)`        | `(namedExpr x v)`, `(namedExpr x (binOp + x v))`, `(binOp + x (integer 1))` |
// | `let x = v`, `const x: T = v`, `let x`   | `(assign (name x) v)`, `(annAssign (name x) (name T) v)`, `(assign (name x) (none))` |
// | `const {a, b: c = 1, ...r} = o`          | `(assign (name a) (attribute a o))`, `(assign (name c) (boolOp or (attribute b o) (integer 1)))`, `(assign (name r) o)`; a value that is not a name or attribute chain is first assigned to a temporary `#tmpN` |
// | `const [a, , ...r] = o`                  | `(assign (name a) (subscript o (integer 0)))`, `(assign (name r) (subscript o (slice (integer 2) _ _)))` |
// | `const f = (..) => ..`, `= function..`, `= class ..` | a `functionDef`/`classDef` named `f`                          |
// | `function f(a, b = 1, {x}, ...r)`        | `(functionDef f (decorators) (typeParams) (parameters (parameter a _ _) (parameter b _ (integer 1)) (parameter #arg2 _ _) (varArgs r _)) _ (block ...))`; the destructured `#argN` (N its position) is unpacked by assignments at the top of the body |
// | `async function`, `async () =>`          | `asyncFunctionDef`                                                  |
// | `x => x.id` (expression body)            | `(functionDef #fn0 (decorators) (typeParams) (parameters ...) _ (block (return ...)))`; what the body hoists precedes the `return` |
// | `app.get('/x', (req, res) => {...})`     | hoisted: `(functionDef #fn0 ... (parameters (parameter req _ _) (parameter res _ _)) ...)`, then `(exprStmt (call (attribute get (name app)) (string "/x") (name #fn0)))` |
// | a function, arrow or class in an expression (named or not) | hoisted the same way: an `asyncFunctionDef`/`classDef` `#fnN` just before the statement holding it, in the same block (a function's body; the class body for a field or member; before the `def` for a parameter's default; before an `if` or loop for its test), the expression `(name #fnN)` |
// | `@Get(':id')` on a method or class       | `(decorators (decorator (call (name Get) (string ":id"))))`         |
// | `@Param('id') id: string` (parameter)    | `(parameter id (subscript (name Annotated) (tuple (name string) (call (name Param) (string "id")))) _)`, as FastAPI's `Annotated[str, Query()]`; no type: `(name any)` |
// | `class C extends B { ... }`              | `(classDef C (decorators) (typeParams) (arguments (name B)) (block ...))` |
// | an instance method, a constructor        | `functionDef` with a first parameter `this` (Python's `self`); a constructor is named `__init__` |
// | a `static` method / a getter / a setter  | an added decorator `staticmethod` / `property` / `name.setter`      |
// | `constructor(private readonly r: R)`     | parameter `r`, and `this.r = r` first in the body                  |
// | a field `x: T = v;`, `static y = 1;`     | `(annAssign (name x) (name T) v)`, `(assign (name y) (integer 1))` in the class body |
// | `static { ... }`                         | its statements in the class body                                    |
// | `enum E { A = 1, B }`                    | `(classDef E ... (block (assign (name A) (integer 1)) (assign (name B) (integer 2))))` |
// | `namespace N { ... }`                    | its statements                                                      |
// | interfaces, type aliases, `declare` and overload signatures, index signatures, `import type` | nothing |
// | `if`/`else if`/`else`                    | `(if test (block ...) (block (if ...)))`                            |
// | `for (i; t; u) s`                        | `i`, then `(while t (block s u) _)`                                 |
// | `for (k in o)`, `for (x of xs)`, `for await` | `(for (name k) o ...)`, `(for (name x) xs ...)`, `asyncFor`     |
// | `while`, `do s while (t)`                | `(while t ...)`, `(while (true) (block s (if (unaryOp not t) (block (break)) _)) _)` |
// | `switch (d) { case a: case b: s; break; default: t }` | `(if (boolOp or (compare == d a) (compare == d b)) (block s) (block t))`; a case's closing `break` dropped, fall-through not modelled |
// | `try {} catch (e) {} finally {}`         | `(try (block) (exceptHandler e _ (block)) _ (block))`              |
// | `throw e`                                | `(raise e _)`                                                       |
// | `label: s`, `break label`                | `s`, `(break)`                                                      |
// | `{ ... }` as a statement                 | its statements, spliced into the enclosing list                    |
// | `with (o) s`                             | `(with (withItem o _) (block s))`                                   |
// | `import d from 'm'`, `import * as ns from 'm'` | `(import (alias m (name d)))`, `(import (alias m (name ns)))`: `d` stands for the module (CommonJS interop) |
// | `import {a as b, c} from 'm'`            | `(importFrom m (alias a (name b)) (alias c))`                       |
// | `import 'm'`                             | `(import (alias m))`                                                |
// | `import x = require('m')`                | `(import (alias m (name x)))`                                       |
// | `const x = require('m')`, `x = require('m')` | `(import (alias m (name x)))`, as `import x from 'm'`                |
// | `const {a, b: c} = require('m')`         | `(importFrom m (alias a) (alias b (name c)))`; a pattern with defaults, nesting or a rest: `(import (alias m (name #tmp0)))` then its destructuring |
// | `const x = require('m').y`               | `(importFrom m (alias y (name x)))`                                 |
// | any other `require(...)` (a computed name) | a call                                                            |
// | `'node:child_process'` (any specifier)   | `child_process`                                                     |
// | `'./db'`, `'../lib/util.js'`, `'./routes/index'` | `.db`, `..lib.util`, `.routes` (Python's relative modules: a dot, one more per leading `../`; `/` as `.`; the extension and a last `index` dropped); `'@scope/pkg/sub'` as written |
// | `'./users.service'`, `'./user-service'`  | `.users:service`, `.user-service`: a dot inside a file or directory name is `:` (a `.` would be a directory), a `-` stays; a project's file is named alike (`JavaScriptLowering.module(ofFile:)`: `src/users.service.ts` is `src.users:service`) |
// | `import x from './db'`, `require('./db')` | `(importFrom . (alias db (name x)))`, as Python's `from . import db as x`; `import {a} from './db'` is `(importFrom .db (alias a))`; a bare directory (`import x from '.'`) `(import (alias . (name x)))`, Python having no such form |
// | `export <declaration>`                   | the declaration                                                     |
// | `export default function f`, `export default class C` | the declaration, then `(assign (name default) (name f))` |
// | `export default expr` (or an anonymous declaration) | `(assign (name default) expr)`; a function, arrow or class (expression or anonymous declaration) is a definition named `default` |
// | `export {a} from 'm'`, `export * from 'm'` | `(importFrom m (alias a))`, `(importFrom m (alias *))`            |
// | `export = e`                             | `(assign (attribute exports (name module)) e)`                      |
// | `<Comp a={x} b>text{y}</Comp>`           | `(call jsx (name Comp) (string "text") (name y) (keyword a (name x)) (keyword b (true)))`: children first, then attributes |
// | `<div {...p}/>`, `<>...</>`              | `(call jsx (string "div") (doubleStarred (name p)))`, callee `(none)` |
// | pattern `f($X, ...)`, `[..., $X]`, `{...}`, `{$K: $V}` | `(call (name f) (name $X) (ellipsis))`, `(list (ellipsis) (name $X))`, `(dict (ellipsis))`, `(dict (keyValue (name $K) (name $V)))` |
// | pattern `function $F($REQ, ...) { ... }` | `(functionDef $F (decorators) (typeParams) (parameters (parameter $REQ _ _) (ellipsis)) _ (block (exprStmt (ellipsis))))` |
// | pattern `app.get($P, (req) => { ... })`  | the inline function in place, not hoisted: `(call (attribute get (name app)) (name $P) (functionDef (decorators) ...))` |
//
// Rule patterns (``JavaScriptLowering/lowerPattern(_:dialect:)``, JavaScriptPattern.swift) lower like
// code, with Python's patterns' metavariables (`$X`, `$...X` names) and `(ellipsis)`, except that
// nothing is hoisted: a pattern's inline function stays where it is written (an anonymous
// `functionDef` in its call). In lowered code that function is a `(name #fnN)` naming the definition
// hoisted before the statement; following that name when a pattern's function meets it is the
// matcher's part.
//
// A type annotation becomes an expression: a named type is a name or attribute chain (`Promise<T>` a
// subscript), a literal type its literal, a union a `binOp |` chain, `T[]` `Array[T]`; any other type
// is `(ellipsis)`.
//
// What is lost, on purpose (the engine reasons about Python-like code and over-approximates):
// - `let`/`const` block scoping (a bare block is spliced; names are function-scoped as in Python);
// - `switch` fall-through from a case with statements, a `for` loop's update after `continue`,
//   labels (`break label` is a plain `break`);
// - `===` versus `==`, `??` versus `||` (both `or`), the value of a comma expression (a tuple), the
//   value of `x++` in an expression (`x + 1`), the rest of an object pattern (bound to the whole);
// - TypeScript types beyond names, literals, unions and arrays; type parameters' constraints;
//   `implements`; accessibility (`private`) except that it makes a constructor parameter a field;
// - a template literal's `raw` source (its parts keep theirs); JSX's order between attributes and
//   children, and whitespace-only JSX text;
// - a default import is bound to the module itself (`import d from 'm'` as `import m as d`), right for
//   CommonJS modules and `esModuleInterop`, not for an ES module's real `default` export;
// - a named function or class expression's own name (`#fnN` instead; a recursive call by that name
//   is not resolved), and a class field's arrow is a hoisted function assigned to the field, not a
//   method with `this`.
//
// Made up by the lowering, each with the range of what it stands for: `#tmpN` temporaries, `#fnN`
// hoisted functions and classes (a named function expression's own name is not kept: it is bound
// only inside itself in JavaScript, and binding it in the enclosing block could shadow another),
// `#argN` destructured parameters, the `this` parameter of instance methods, the `staticmethod`,
// `property` and `name.setter` decorators, `__init__`, the `isinstance` of `instanceof`, `Annotated`
// for decorated parameters, `default` for `export default`, `module.exports` for `export =`.

import JavaScriptSyntax
import SyntaxTree
import SourcePositions
import Support

/// Lowers a JavaScript or TypeScript syntax tree into the generic tree the SAST engine analyses.
///
/// The generic tree is SyntaxTree's ``SyntaxNode`` (owned by no parser): each JavaScript construct becomes its nearest
/// generic kind (the mapping table is the header of this file), ranges are carried over unchanged, and
/// every ``JSNodeKind`` is handled: a type-only construct becomes nothing and an unexpected node
/// something harmless, never a trap.
public enum JavaScriptLowering {
    /// The name prefix of a temporary the lowering introduces (`#tmp0`): a `#` never starts a
    /// JavaScript identifier, so it cannot clash with the program's names.
    public static let temporaryPrefix = "#tmp"
    /// The name prefix of a destructured parameter (`#arg1` for the second parameter), whose pattern
    /// is unpacked by assignments at the top of the function's body.
    public static let destructuredParameterPrefix = "#arg"
    /// The name prefix of a hoisted function or class expression (`#fn0`): the engine analyses the
    /// functions that are statements, so an inline one becomes a definition before its statement.
    public static let hoistedPrefix = "#fn"

    /// The ``SyntaxKind/module`` of a ``JSNodeKind/program`` (any other node is lowered
    /// as the one statement or expression of a module).
    ///
    /// Runs on a thread with a large stack, as the parsers do: the lowering recurses once per level
    /// of the tree, and a chain of thousands of operators is that deep.
    public static func lower(_ program: JSNode) -> SyntaxNode {
        let lowered = try? LargeStack.run { lowerOnCurrentThread(program) }
        return lowered ?? lowerOnCurrentThread(program)
    }

    /// The lowering of ``lower(_:)`` on the calling thread, for a caller already on a large stack.
    public static func lowerOnCurrentThread(_ program: JSNode) -> SyntaxNode {
        let lowerer = Lowerer(pattern: false)
        if program.kind == .program {
            return SyntaxNode(.module, children: lowerer.statements(program.children), range: program.range)
        }
        return SyntaxNode(.module, children: lowerer.statement(program), range: program.range)
    }
}

/// The lowering's state: counters for the names it makes up and the definitions being hoisted.
/// One per tree.
final class Lowerer {
    /// Whether this is a rule pattern: nothing is hoisted (a pattern's inline function stands for an
    /// inline function, in place) and a metavariable key (`{$K: $V}`) is a name, not a string.
    let isPattern: Bool
    /// How many temporaries (`#tmpN`) have been made.
    var temporaries = 0
    /// How many hoisted definitions (`#fnN`) have been named.
    var hoistedCount = 0
    /// The definitions hoisted out of each statement being lowered, the innermost last; the first
    /// list catches any made outside a statement.
    var hoisted: [[SyntaxNode]] = [[]]

    /// A lowerer for code, or for a rule pattern (`pattern`).
    init(pattern: Bool) { isPattern = pattern }

    /// A fresh temporary's name.
    func temporaryName() -> String {
        defer { temporaries += 1 }
        return JavaScriptLowering.temporaryPrefix + String(temporaries)
    }

    /// A node with `range` (the JavaScript node's).
    func make(
        _ kind: SyntaxKind, _ text: String? = nil, _ children: [SyntaxNode] = [], _ range: SourceRange, raw: String? = nil
    ) -> SyntaxNode {
        SyntaxNode(kind, text: text, children: children, range: range, raw: raw)
    }

    /// The placeholder for an absent child.
    func empty(_ range: SourceRange) -> SyntaxNode { SyntaxNode(.empty, range: range) }

    /// A name.
    func name(_ text: String, _ range: SourceRange) -> SyntaxNode { SyntaxNode(.name, text: text, range: range) }

    /// The `i`th child of `node`, or an empty node (the lowering never indexes past a malformed node).
    func child(_ node: JSNode, _ i: Int) -> JSNode {
        let children = node.children
        return i < children.count ? children[i] : JSNode(.empty, range: node.range)
    }

    /// Whether a ``JSNodeKind/modifiers`` child holds `word`.
    func has(_ modifiers: JSNode, _ word: String) -> Bool {
        modifiers.kind == .modifiers && modifiers.children.contains { $0.text == word }
    }
}
