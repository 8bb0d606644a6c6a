/// Every kind of node in a JavaScript, JSX or TypeScript syntax tree.
///
/// Layouts are positional so a matcher (and the lowering to a language-neutral tree) can compare
/// children pairwise: an absent optional child is an ``empty`` node, never left out. Literal kinds carry
/// their decoded value in `text` and their source in `raw`. ``modifiers`` lists keep words such as
/// `async`, `static`, `get`, `private`, `declare` or the markers `*`, `?` and `!` in source order.
public enum JSNodeKind: String, Sendable, Hashable, CaseIterable {
    // MARK: Structure

    /// A whole file: children are statements (and TypeScript declarations).
    case program
    /// `{ ... }` statement list: children are statements.
    case block
    /// Placeholder for an absent optional child; no text, no children.
    case empty
    /// Modifier words and markers of a declaration: children are ``modifier`` nodes (possibly none).
    case modifiers
    /// One modifier: `text` the word or marker (`async`, `*`, `static`, `readonly`, `?`, `!`, `get`...).
    case modifier
    /// Decorator list: children are ``decorator`` nodes (possibly none).
    case decorators
    /// `@expr`: `[expr]` (a call for `@Get(':id')`, an identifier or member for `@Injectable`).
    case decorator

    // MARK: Statements

    /// `var`/`let`/`const`/`using`/`await using` list: `text` the keyword; children ``variableDeclarator``.
    case variableDeclaration
    /// One binding: `[target, type|empty, init|empty]`; `text` is `!` for a definite assignment `x!: T`.
    case variableDeclarator
    /// An expression statement: `[expr]`.
    case expressionStatement
    /// A lone `;`; no children.
    case emptyStatement
    /// `if`: `[test, consequent, alternate|empty]`.
    case `if`
    /// `for (init; test; update)`: `[init|empty, test|empty, update|empty, body]`.
    case `for`
    /// `for (left in right)`: `[left, right, body]`.
    case forIn
    /// `for [await] (left of right)`: `[left, right, body]`; `text` is `await` for `for await`.
    case forOf
    /// `while`: `[test, body]`.
    case `while`
    /// `do body while (test)`: `[body, test]`.
    case doWhile
    /// `return`: `[argument|empty]`.
    case `return`
    /// `throw`: `[argument]`.
    case `throw`
    /// `break [label]`: `text` the label or nil; no children.
    case `break`
    /// `continue [label]`: `text` the label or nil; no children.
    case `continue`
    /// `label: body`: `text` the label; `[body]`.
    case labeled
    /// `switch`: `[discriminant, switchCase...]`.
    case `switch`
    /// `case test:` / `default:`: `[test|empty, block]` (the block holds the case's statements).
    case switchCase
    /// `try`: `[block, catchClause|empty, finalizer block|empty]`.
    case `try`
    /// `catch [(param[: type])] block`: `[param|empty, type|empty, block]`.
    case catchClause
    /// `with (object) body`: `[object, body]`.
    case with
    /// `debugger`; no children.
    case debugger

    // MARK: Functions and classes

    /// `function` declaration: `text` the name (nil for `export default function`);
    /// `[modifiers, name|empty, typeParameters|empty, parameters, returnType|empty, body|empty]`.
    /// An empty body is an overload or `declare` signature.
    case functionDeclaration
    /// `function` expression: the layout of ``functionDeclaration``.
    case functionExpression
    /// `(params) => body`: `[modifiers, typeParameters|empty, parameters, returnType|empty, body]`; the
    /// body is a ``block`` or an expression.
    case arrowFunction
    /// A parameter list: children are ``parameter`` nodes.
    case parameters
    /// One parameter: `[decorators, modifiers, pattern, type|empty, default|empty]`. Modifiers hold
    /// accessibility and `readonly` (parameter properties) and `?`; a rest parameter's pattern is a
    /// ``restElement``; `this: T` is a pattern ``this``.
    case parameter
    /// `class` declaration: `text` the name (nil when anonymous);
    /// `[decorators, modifiers, name|empty, typeParameters|empty, superClass|empty, superTypeArguments|empty,
    /// implements, classBody]`.
    case classDeclaration
    /// `class` expression: the layout of ``classDeclaration``.
    case classExpression
    /// `implements A, B<T>`: children are type nodes (possibly none); also an interface's `extends` list.
    case heritage
    /// Class members: ``method``, ``property``, ``staticBlock``, ``indexSignature``.
    case classBody
    /// A method, getter, setter or constructor, in a class or an object literal: `text` the key's name
    /// when it is not computed; `[decorators, modifiers, key, typeParameters|empty, parameters,
    /// returnType|empty, body|empty]`. `get`/`set`/`async`/`*` are modifiers.
    case method
    /// A class field: `text` the key's name when not computed;
    /// `[decorators, modifiers, key, type|empty, value|empty]` (`?`, `!`, `accessor` are modifiers).
    case property
    /// `static { ... }`: `[block]`.
    case staticBlock
    /// `[expr]` as a property key: `[expr]`.
    case computedKey

    // MARK: Modules

    /// `import ... from 'source'` or `import 'source'`: `text` is `type` for `import type`;
    /// `[importClause|empty, source string, attributes|empty]`.
    case importDeclaration
    /// What an import binds: children are ``importDefault``, ``importNamespace``, ``importSpecifier``.
    case importClause
    /// `import x`: `text` the local name; `[identifier]`.
    case importDefault
    /// `* as ns`: `text` the local name; `[identifier]`.
    case importNamespace
    /// `{ imported as local }`: `text` is `type` for `{ type X }`; `[imported, local]`.
    case importSpecifier
    /// `with { type: 'json' }` (or `assert`): children are ``property`` nodes of an object.
    case importAttributes
    /// TypeScript `import x = require('m')` / `import x = A.B`: `text` the name; `[identifier, reference]`
    /// where the reference is an ``externalModuleReference`` or an expression.
    case importEquals
    /// `require('m')` in ``importEquals``: `[string]`.
    case externalModuleReference
    /// `export { a as b } [from 'm']`: `text` is `type` for `export type {...}`;
    /// `[exportSpecifier..., source|empty, attributes|empty]` — the last two are always there.
    case exportNamed
    /// `local as exported` in ``exportNamed``: `text` is `type` for `{ type X }`; `[local, exported]`.
    case exportSpecifier
    /// `export * [as ns] from 'm'`: `[exported|empty, source, attributes|empty]`.
    case exportAll
    /// `export declaration`: `[declaration]`.
    case exportDeclaration
    /// `export default value-or-declaration`: `[declaration or expression]`.
    case exportDefault
    /// TypeScript `export = expr`: `[expr]`.
    case exportAssignment
    /// TypeScript `export as namespace N`: `text` the name; no children.
    case exportNamespace

    // MARK: Expressions

    /// A name: `text` the name, escapes decoded.
    case identifier
    /// `#name` in a class: `text` the name with its `#`.
    case privateName
    /// `this`.
    case this
    /// `super`.
    case `super`
    /// `null`.
    case null
    /// `true` or `false`: `text` the word.
    case boolean
    /// A number: `text` its value in decimal (`0x10` → `16`, `1_000` → `1000`), `raw` as written.
    case number
    /// A BigInt: `text` its digits without separators or `n`, `raw` as written.
    case bigint
    /// A string: `text` the decoded value, `raw` with quotes.
    case string
    /// `/pattern/flags`: `text` the pattern, `raw` as written (with the flags).
    case regex
    /// `` `a${b}c` ``: `[templateElement, expr, templateElement, ..., templateElement]`.
    case templateLiteral
    /// Literal part of a template: `text` the cooked value (nil when its escape is invalid, which a
    /// tagged template allows), `raw` as written.
    case templateElement
    /// `` tag`...` ``: `[tag, typeArguments|empty, templateLiteral]`.
    case taggedTemplate
    /// `[a, , ...b]`: elements, ``elision`` for holes, ``spread``.
    case array
    /// A hole in an array literal or pattern.
    case elision
    /// `{ ... }` literal: ``property``-like ``objectProperty``, ``method``, ``spread``.
    case object
    /// `key: value` or shorthand `key` in an object literal or pattern: `text` is `shorthand` for the
    /// short form; `[key, value]` (shorthand repeats the identifier as value).
    case objectProperty
    /// `...expr` in arrays, objects and arguments: `[expr]`.
    case spread
    /// `(expr)`: `[expr]`.
    case parenthesized
    /// `a, b`: children the expressions.
    case sequence
    /// Prefix operator (`!`, `-`, `+`, `~`, `typeof`, `void`, `delete`): `text` the operator; `[argument]`.
    case unary
    /// `++x` / `--x`: `text` the operator; `[argument]`.
    case prefixUpdate
    /// `x++` / `x--`: `text` the operator; `[argument]`.
    case postfixUpdate
    /// Binary operator (arithmetic, comparison, `in`, `instanceof`): `text` the operator; `[left, right]`.
    case binary
    /// `&&`, `||`, `??`: `text` the operator; `[left, right]`.
    case logical
    /// `=` and compound assignment (`+=`, `??=`...): `text` the operator; `[target, value]`.
    case assignment
    /// `test ? a : b`: `[test, consequent, alternate]`.
    case conditional
    /// A call: `text` is `?.` for an optional call; `[callee, typeArguments|empty, arguments]`.
    case call
    /// `new callee(args)`: `[callee, typeArguments|empty, arguments|empty]`.
    case new
    /// Call arguments: children are expressions and ``spread``.
    case arguments
    /// `object.name`, `object?.name`, `object.#name`: `text` is `.` or `?.`; `[object, property]`.
    case member
    /// `object[index]`, `object?.[index]`: `text` is nil or `?.`; `[object, index]`.
    case index
    /// `yield [*] arg`: `text` is `*` when delegating; `[argument|empty]`.
    case yield
    /// `await arg`: `[argument]`.
    case await
    /// `new.target`, `import.meta`: `text` the whole phrase.
    case metaProperty
    /// `import(source[, options])`: `[source, options|empty]`.
    case importCall

    // MARK: Patterns

    /// `{ a, b: c, ...rest }` as a binding or assignment target: ``objectProperty`` and ``restElement``.
    case objectPattern
    /// `[a, , b = 1, ...rest]` as a target: targets, ``elision``, ``restElement``.
    case arrayPattern
    /// `target = default` inside a pattern or parameter: `[target, default]`.
    case assignmentPattern
    /// `...target` in a pattern or parameter: `[target]`.
    case restElement
    /// `...` in a rule pattern (``JavaScriptParser/parsePattern(bytes:dialect:)`` only), standing
    /// for any expression, arguments, parameters, elements, members or statements; no children.
    case ellipsis

    // MARK: TypeScript expressions

    /// `expr as Type` (`as const` has a ``typeReference`` `const`): `[expr, type]`.
    case asExpression
    /// `expr satisfies Type`: `[expr, type]`.
    case satisfiesExpression
    /// `expr!`: `[expr]`.
    case nonNull
    /// `<Type>expr` (.ts only): `[type, expr]`.
    case typeAssertion
    /// `f<T>` without a call: `[expr, typeArguments]`.
    case instantiation

    // MARK: TypeScript declarations

    /// `interface`: `text` the name; `[modifiers, name, typeParameters|empty, heritage, objectType]`.
    case interfaceDeclaration
    /// `type X<T> = ...`: `text` the name; `[modifiers, name, typeParameters|empty, type]`.
    case typeAlias
    /// `[const] enum`: `text` the name; `[modifiers, name, enumMember...]` (`const`, `declare` are modifiers).
    case enumDeclaration
    /// `key [= init]` in an enum: `[key, init|empty]`.
    case enumMember
    /// `namespace`/`module`/`global` declaration: `text` the keyword; `[modifiers, name, block|empty]`; the
    /// name is an identifier, a dotted ``member`` chain, or a string for `declare module 'x'`.
    case moduleDeclaration

    // MARK: Types

    /// `<T extends U = V, ...>`: children ``typeParameter``.
    case typeParameters
    /// `T extends U = V`: `text` the name; `[modifiers, constraint|empty, default|empty]` (`in`, `out`,
    /// `const` are modifiers).
    case typeParameter
    /// `<A, B>` after a name or callee: children types.
    case typeArguments
    /// A named type, keyword types included (`string`, `Promise<T>`, `A.B`, `const` in `as const`):
    /// `text` the dotted name; `[typeArguments|empty]`.
    case typeReference
    /// `this` as a type.
    case thisType
    /// A literal as a type (`'a'`, `1`, `-1`, `true`, `null`): `[literal]`.
    case literalType
    /// `` `a${T}` `` as a type: `[templateElement, type, templateElement, ...]`.
    case templateLiteralType
    /// `A | B`: children types.
    case unionType
    /// `A & B`: children types.
    case intersectionType
    /// `T[]`: `[element]`.
    case arrayType
    /// `[A, b?: B, ...C]`: children types, ``namedTupleMember``, ``optionalType``, ``restType``.
    case tupleType
    /// `name: T` in a tuple: `text` the name (with `?` when optional); `[type]`.
    case namedTupleMember
    /// `T?` in a tuple: `[type]`.
    case optionalType
    /// `...T` in a tuple: `[type]`.
    case restType
    /// `(a: A) => R` or `new (...) => R`: `text` is `new` for a constructor type;
    /// `[modifiers, typeParameters|empty, parameters, returnType]`.
    case functionType
    /// `{ members }`: ``propertySignature``, ``methodSignature``, ``callSignature``, ``constructSignature``,
    /// ``indexSignature``.
    case objectType
    /// `key?: T` in an object type or interface: `text` the key's name; `[modifiers, key, type|empty]`.
    case propertySignature
    /// `key?<T>(params): R` in an object type: `text` the key's name;
    /// `[modifiers, key, typeParameters|empty, parameters, returnType|empty]` (`get`/`set` are modifiers).
    case methodSignature
    /// `<T>(params): R` in an object type: `[typeParameters|empty, parameters, returnType|empty]`.
    case callSignature
    /// `new <T>(params): R` in an object type: `[typeParameters|empty, parameters, returnType|empty]`.
    case constructSignature
    /// `[key: K]: T` in an object type or class: `text` the key's name; `[modifiers, keyType, type]`.
    case indexSignature
    /// `{ [K in T as N]?: V }`: `text` the key's name; `[modifiers, constraint, nameType|empty, type|empty]`;
    /// modifiers hold `readonly`, `+readonly`, `-readonly`, `?`, `+?`, `-?`.
    case mappedType
    /// `keyof T`, `unique symbol`, `readonly T[]`: `text` the operator; `[type]`.
    case typeOperator
    /// `typeof x.y<T>`: `[expression name or importType, typeArguments|empty]`.
    case typeQuery
    /// `T[K]`: `[object, index]`.
    case indexedAccessType
    /// `C extends E ? T : F`: `[check, extends, true, false]`.
    case conditionalType
    /// `infer U [extends C]`: `text` the name; `[constraint|empty]`.
    case inferType
    /// `(T)`: `[type]`.
    case parenthesizedType
    /// `x is T`, `asserts x [is T]`: `text` is `asserts` or nil; `[parameter name or this, type|empty]`.
    case typePredicate
    /// `import('m').A<T>`: `text` the qualifier after the call or nil; `[string, typeArguments|empty]`.
    case importType

    // MARK: JSX

    /// An element or fragment: `text` the tag name (nil for `<>`);
    /// `[name|empty, typeArguments|empty, jsxAttributes, jsxChildren]`. A self-closing element has no children.
    case jsxElement
    /// A tag name: `text` the whole name (`div`, `Foo.Bar`, `svg:rect`); no children.
    case jsxName
    /// Attributes: ``jsxAttribute`` and ``jsxSpreadAttribute``.
    case jsxAttributes
    /// `name[=value]`: `text` the name (`ns:name` when namespaced); `[value|empty]` where the value is a
    /// ``string``, ``jsxExpressionContainer`` or ``jsxElement``.
    case jsxAttribute
    /// `{...expr}` among attributes: `[expr]`.
    case jsxSpreadAttribute
    /// Element content: ``jsxText``, ``jsxExpressionContainer``, ``jsxSpreadChild``, ``jsxElement``.
    case jsxChildren
    /// Text between tags: `text` with entities decoded, `raw` as written.
    case jsxText
    /// `{expr}` (an empty `{}` or comment-only `{/* */}` holds ``empty``): `[expr|empty]`.
    case jsxExpressionContainer
    /// `{...expr}` as a child: `[expr]`.
    case jsxSpreadChild
}
