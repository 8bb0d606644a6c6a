/// Every kind of node in the syntax tree the languages lower into.
///
/// The kinds began as Python 3.12's, and Python's constructs keep them (their names, their
/// layouts); a construct another language shares lowers to the same kind. The kinds under
/// "Concepts of other languages" are named by concept, not by a language's spelling; a lowering
/// uses them where no shared kind says the same, and ``other`` carries what no kind names yet.
///
/// Layouts are positional so a structural matcher can compare children pairwise. An absent optional
/// child is an ``empty`` node, never left out, so positions stay fixed. "Body" children are ``block``
/// nodes. Literal kinds carry their decoded value in `text` and their source in `raw`.
public enum SyntaxKind: String, Sendable, Hashable, CaseIterable {
    // MARK: Structure

    /// A whole file (or a multi-statement pattern): children are statements.
    case module
    /// A statement list (body of a compound statement): children are statements.
    case block
    /// Placeholder for an absent optional child; no text, no children.
    case empty

    // MARK: Definitions

    /// `def`: `text` name; `[decorators, typeParams, parameters, returns|empty, block]`.
    case functionDef
    /// `async def`: same layout as ``functionDef``.
    case asyncFunctionDef
    /// `class`: `text` name; `[decorators, typeParams, arguments, block]` (bases/keywords in `arguments`).
    case classDef
    /// Decorator list: children are ``decorator`` nodes (possibly none).
    case decorators
    /// `@expr`: `[expr]`.
    case decorator
    /// PEP 695 type parameter list `[T, *Ts, **P]`: children are ``typeParam`` nodes (possibly none).
    case typeParams
    /// A type parameter: `text` name, prefixed with `*` or `**` for TypeVarTuple/ParamSpec; `[bound|empty]`.
    case typeParam
    /// Parameter list of a def or lambda, in source order: ``parameter``, ``varArgs``, ``kwArgs``,
    /// ``positionalOnlyMarker``, ``keywordOnlyMarker`` (and ``ellipsis`` in patterns).
    case parameters
    /// A named parameter: `text` name; `[annotation|empty, default|empty]`.
    case parameter
    /// `*args`: `text` name; `[annotation|empty]`.
    case varArgs
    /// `**kwargs`: `text` name; `[annotation|empty]`.
    case kwArgs
    /// The `/` that ends positional-only parameters; no children.
    case positionalOnlyMarker
    /// A bare `*` that starts keyword-only parameters; no children.
    case keywordOnlyMarker
    /// Class bases and keywords: children as for call arguments (expressions, ``keyword``, ``starred``,
    /// ``doubleStarred``).
    case arguments

    // MARK: Simple statements

    /// `return [value]`: `[value]` or `[]`.
    case `return`
    /// `del a, b`: children are the targets.
    case delete
    /// `a = b = value`: `[target1, ..., targetN, value]` (at least two children).
    case assign
    /// `target op= value`: `text` the operator (`+=`); `[target, value]`.
    case augAssign
    /// `target: annotation [= value]`: `[target, annotation, value|empty]`.
    case annAssign
    /// `type X[T] = value`: `text` name; `[name, typeParams, value]`.
    case typeAlias
    /// An expression statement: `[expr]`.
    case exprStmt
    /// `pass`; no children.
    case pass
    /// `break`; no children.
    case `break`
    /// `continue`; no children.
    case `continue`
    /// `raise [exc [from cause]]`: `[exc|empty, cause|empty]`.
    case raise
    /// `assert test [, msg]`: `[test, msg|empty]`.
    case assert
    /// `import a.b as c, d`: children are ``alias`` nodes.
    case `import`
    /// `from ..m import a as b`: `text` module with its leading dots (`..m`, `.`); children ``alias``.
    case importFrom
    /// An imported name: `text` dotted name (or `*`); `[name]` holding the `as` name, or `[]`.
    case alias
    /// `global a, b`: children are ``name`` nodes.
    case global
    /// `nonlocal a, b`: children are ``name`` nodes.
    case nonlocal

    // MARK: Compound statements

    /// `if test: body [else: orelse]`: `[test, block, orelse block|empty]`; `elif` is an ``if`` alone in
    /// the orelse block.
    case `if`
    /// `while test: body [else: orelse]`: `[test, block, orelse block|empty]`.
    case `while`
    /// `for target in iter: body [else: orelse]`: `[target, iter, block, orelse block|empty]`.
    case `for`
    /// `async for`: same layout as ``for``.
    case asyncFor
    /// `with items: body`: `[withItem..., block]`.
    case with
    /// `async with`: same layout as ``with``.
    case asyncWith
    /// A context manager: `[contextExpr, target|empty]`.
    case withItem
    /// `try`: `[block, exceptHandler..., orelse block|empty, finally block|empty]`.
    case `try`
    /// `try` with `except*` handlers: same layout as ``try``.
    case tryStar
    /// `except [type [as name]]: body`: `text` the bound name or nil; `[type|empty, block]`.
    case exceptHandler
    /// `match subject: cases`: `[subject, matchCase...]`.
    case match
    /// `case pattern [if guard]: body`: `[pattern, guard|empty, block]`.
    case matchCase

    // MARK: Match patterns

    /// A value pattern (`1`, `-1`, `1+2j`, `"s"`, `a.b`): `[expr]`.
    case matchValue
    /// `None`, `True` or `False` as a pattern: `text` the keyword.
    case matchSingleton
    /// `[p, *rest]` or `(p, q)`: children are patterns.
    case matchSequence
    /// `{key: p, **rest}`: children ``matchKeyValue`` and, last, an optional ``matchRest``.
    case matchMapping
    /// One `key: pattern` entry: `[key expr, pattern]`.
    case matchKeyValue
    /// `**rest` in a mapping pattern: `text` the name.
    case matchRest
    /// `Cls(p, k=q)`: `[cls expr, positional patterns..., matchKeyword...]`.
    case matchClass
    /// `k=pattern` in a class pattern: `text` the keyword; `[pattern]`.
    case matchKeyword
    /// `*name` or `*_` in a sequence pattern: `text` the name (`_` for the wildcard).
    case matchStar
    /// Capture `name`, wildcard `_` (text nil, no children) or `pattern as name` (`[pattern]`).
    case matchAs
    /// `p | q`: children are the alternatives.
    case matchOr

    // MARK: Expressions

    /// `a and b and c` / `a or b`: `text` `and`/`or`; children are all operands (flattened).
    case boolOp
    /// `target := value`: `[name, value]`.
    case namedExpr
    /// `left op right`: `text` the operator (`+`, `**`, `@`, ...); `[left, right]`.
    case binOp
    /// `op operand`: `text` `not`, `-`, `+` or `~`; `[operand]`.
    case unaryOp
    /// `lambda params: body`: `[parameters, body]`.
    case lambda
    /// `body if test else orelse`: `[body, test, orelse]` (source order).
    case ifExp
    /// `{k: v, **m}`: children ``keyValue`` and ``doubleStarred``.
    case dict
    /// One `key: value` entry of a dict display: `[key, value]`.
    case keyValue
    /// `{a, *b}`: children are elements.
    case set
    /// `[a, *b]`: children are elements.
    case list
    /// `(a, b)` or `a, b`: children are elements.
    case tuple
    /// `[elt for ...]`: `[elt, comprehension...]`.
    case listComp
    /// `{elt for ...}`: `[elt, comprehension...]`.
    case setComp
    /// `{k: v for ...}`: `[key, value, comprehension...]`.
    case dictComp
    /// `(elt for ...)`: `[elt, comprehension...]`.
    case generatorExp
    /// `[async] for target in iter [if cond]...`: `text` `async` or nil; `[target, iter, cond...]`.
    case comprehension
    /// `await value`: `[value]`.
    case await
    /// `yield [value]`: `[value]` or `[]`.
    case yield
    /// `yield from value`: `[value]`.
    case yieldFrom
    /// `a < b <= c`: `text` the operators joined by `,` (`<,<=`; `not in`, `is not` spelled out);
    /// `[left, comparator...]`.
    case compare
    /// `f(a, *b, k=c, **d)`: `[callee, argument...]`; arguments are expressions, ``starred``,
    /// ``keyword`` and ``doubleStarred``.
    case call
    /// `name=value` in a call or class bases: `text` the name; `[value]`.
    case keyword
    /// `**value` in a call or dict display: `[value]`.
    case doubleStarred
    /// `*value` in a call, display, target or subscript: `[value]`.
    case starred
    /// An f-string (joined with any adjacent literals): children ``string`` pieces and
    /// ``formattedValue``; `raw` the source.
    case joinedStr
    /// `{value!conv:spec}` inside an f-string: `text` the conversion (`r`, `s`, `a`) or nil;
    /// `[value, format spec joinedStr|empty]`.
    case formattedValue
    /// `value.attr`: `text` the attribute name; `[value]`.
    case attribute
    /// `value[index]`: `[value, index]`; a multi-dimensional index is a ``tuple``.
    case `subscript`
    /// `lower:upper:step` inside a subscript: `[lower|empty, upper|empty, step|empty]`.
    case slice
    /// An identifier (or a `$X` / `$...X` metavariable in patterns): `text` the name.
    case name

    // MARK: Constants

    /// A string literal (adjacent literals joined): `text` decoded value; `raw` the source.
    case string
    /// A bytes literal: `text` the bytes as Latin-1 characters; `raw` the source.
    case bytes
    /// An integer literal: `text` the source without underscores (`0x1F`).
    case integer
    /// A float literal: `text` the source without underscores.
    case float
    /// An imaginary literal (`2j`): `text` the source without underscores.
    case imaginary
    /// `True`.
    case `true`
    /// `False`.
    case `false`
    /// `None`.
    case none
    /// `...` (also the "anything" wildcard in patterns).
    case ellipsis

    // MARK: Concepts of other languages

    /// An arrow function (`(a) => a + 1`, `async (a) => {...}`): the layout of ``functionDef``,
    /// `text` the name it is bound to or nil; its body is a ``block`` (an expression body is one
    /// ``return``). Arrows bind no receiver of their own: `this` is the enclosing function's.
    case arrowFunction
    /// A method written in a class or object body: the layout of ``functionDef``; `text` the
    /// method's name. Its first receiver is the language's (`self`, `this`).
    case method
    /// A class's constructor (JavaScript's `constructor`, Python's `__init__` where a lowering
    /// says so): the layout of ``functionDef``.
    case constructor
    /// `new C(a)`: the layout of ``call`` (`[callee, argument...]`): an instance of the callee.
    case new
    /// `switch (subject) { case t: ... default: ... }`: `[subject, switchCase...]`.
    case `switch`
    /// One `case test:` or `default:` of a ``switch``: `[test|empty, block]`; falls through to the
    /// next case unless its block ends in a `break`.
    case switchCase
    /// A block with a lexical scope of its own (`{ let a = 1 }`): children are statements. Names
    /// bound in it are not visible after it.
    case blockScope
    /// An import that binds names from a module given by its specifier as written
    /// (`import {a as b} from "./m"`, `import * as ns from "m"`): `text` the specifier; children
    /// ``alias`` (`*` for a namespace import, `default` for a default import).
    case importWithBindings
    /// A construct of one language that no kind names yet (the escape hatch): `text` the
    /// construct's name, prefixed by its language (`typescript.enum`); children are walked like
    /// any node's, in source order.
    case other

    /// The kinds that are statements: they appear among ``module``'s, ``block``'s and
    /// ``blockScope``'s children.
    public static let statementKinds: Set<SyntaxKind> = [
        .functionDef, .asyncFunctionDef, .classDef, .return, .delete, .assign, .augAssign, .annAssign,
        .typeAlias, .exprStmt, .pass, .break, .continue, .raise, .assert, .import, .importFrom, .global,
        .nonlocal, .if, .while, .for, .asyncFor, .with, .asyncWith, .try, .tryStar, .match,
        .method, .constructor, .switch, .blockScope, .importWithBindings,
    ]

    /// Hashes the case itself. Without this, a `String`-backed enum hashes its raw value (the
    /// case name's bytes) through `RawRepresentable`: every `[SyntaxKind: ...]` lookup the index
    /// and the analysis make per node would hash a string.
    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes(of: self) { hasher.combine(bytes: $0) }
    }

    /// The case's position among the cases (below 128), for sets of kinds kept as bits.
    @inlinable public var ordinal: Int {
        withUnsafeBytes(of: self) { Int($0[0]) }
    }
}
