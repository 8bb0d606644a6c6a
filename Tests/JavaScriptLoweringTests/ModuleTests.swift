import JavaScriptLowering
import SyntaxTree
import Testing

/// `require` as an import, and module specifiers named as the engine names modules.
@Suite struct ModuleTests {
    @Test(
        arguments: [
            ("const x = require('m')", ["(import (alias m (name x)))"]),
            ("let x; x = require('m')", ["(assign (name x) (none))", "(import (alias m (name x)))"]),
            ("const x = require(`m`)", ["(import (alias m (name x)))"]),
            ("const {a, b: c} = require('m')", ["(importFrom m (alias a) (alias b (name c)))"]),
            ("({ a } = require('m'))", ["(importFrom m (alias a))"]),
            ("const x = require('m').y", ["(importFrom m (alias y (name x)))"]),
            ("const y = require('m').y", ["(importFrom m (alias y))"]),
            ("const x = require('m').y.z", ["(importFrom m.y (alias z (name x)))"]),
            ("const {a} = require('m').y", ["(importFrom m.y (alias a))"]),
            (
                "var a = require('m'), b = 1, c = require('n').c",
                ["(import (alias m (name a)))", "(assign (name b) (integer 1))", "(importFrom n (alias c))"]
            ),
            ("const x: M = require('m')", ["(import (alias m (name x)))"]),
            (
                "const {a = 1, b: {c}} = require('m')",
                [
                    "(import (alias m (name #tmp0)))", "(assign (name a) (boolOp or (attribute a (name #tmp0)) (integer 1)))",
                    "(assign (name c) (attribute c (attribute b (name #tmp0))))",
                ]
            ),
            ("const [a] = require('m')", ["(import (alias m (name #tmp0)))", "(assign (name a) (subscript (name #tmp0) (integer 0)))"]),
        ])
    func requireIsAnImport(source: String, expected: [String]) throws {
        #expect(try lowering(source, "a.ts") == expected, "\(source)")
    }

    @Test(
        arguments: [
            ("const x = require(name)", "(assign (name x) (call (name require) (name name)))"),
            ("const x = require('m', 1)", #"(assign (name x) (call (name require) (string "m") (integer 1)))"#),
        ])
    func otherRequiresStayCalls(source: String, expected: String) throws {
        #expect(try lowering(source) == [expected], "\(source)")
    }

    /// Issue 76: `require('m')` and `await import('m')` inside an expression are the module, bound by
    /// an import hoisted before the statement, so `require('child_process').exec(c)` is
    /// `child_process.exec(c)` to the engine.
    @Test(
        arguments: [
            (
                "const d = require('debug')('app')",
                ["(import (alias debug (name #tmp0)))", #"(assign (name d) (call (name #tmp0) (string "app")))"#]
            ),
            ("const x = require('m')[k]", ["(import (alias m (name #tmp0)))", "(assign (name x) (subscript (name #tmp0) (name k)))"]),
            ("require('m')", ["(import (alias m (name #tmp0)))", "(exprStmt (name #tmp0))"]),
            (
                "exports.x = require('./x')",
                ["(importFrom . (alias x (name #tmp0)))", "(assign (attribute x (name exports)) (name #tmp0))"]
            ),
            ("f(require('m'))", ["(import (alias m (name #tmp0)))", "(exprStmt (call (name f) (name #tmp0)))"]),
            (
                "require('node:child_process').exec(c)",
                ["(import (alias child_process (name #tmp0)))", "(exprStmt (call (attribute exec (name #tmp0)) (name c)))"]
            ),
            (
                "async function f() { (await import('vm')).runInThisContext(c) }",
                [
                    "(asyncFunctionDef f (decorators) (typeParams) (parameters) _ (block (import (alias vm (name #tmp0))) (exprStmt (call (attribute runInThisContext (name #tmp0)) (name c)))))"
                ]
            ),
            ("const { exec } = await import('child_process')", ["(importFrom child_process (alias exec))"]),
            ("const run = require('child_process')['exec']", ["(importFrom child_process (alias exec (name run)))"]),
            (
                "import('vm').then((m) => m.runInThisContext(c))",
                [
                    "(functionDef #fn0 (decorators) (typeParams) (parameters (parameter m _ _)) _ (block (import (alias vm (name m))) (return (call (attribute runInThisContext (name m)) (name c)))))",
                    #"(exprStmt (call (attribute then (call (name import) (string "vm"))) (name #fn0)))"#,
                ]
            ),
        ])
    func inlineModulesAreImports(source: String, expected: [String]) throws {
        #expect(try lowering(source, "a.mjs") == expected, "\(source)")
    }

    /// Issue 76: one call, however JavaScript spells it.
    @Test(
        arguments: [
            ("o['m'](x)", "(call (attribute m (name o)) (name x))"),
            ("o[`m`]", "(attribute m (name o))"),
            ("o[k]", "(subscript (name o) (name k))"),
            ("(0, eval)(x)", "(call (name eval) (name x))"),
            ("(0, o.f)(x)", "(call (attribute f (name o)) (name x))"),
            ("(g(), eval)(x)", "(call (tuple (call (name g)) (name eval)) (name x))"),
            ("f.call(null, a, b)", "(call (name f) (name a) (name b))"),
            ("f.call(this, a)", "(call (name f) (name a))"),
            ("f.apply(null, [a, b])", "(call (name f) (name a) (name b))"),
            ("f.apply(null, args)", "(call (name f) (starred (name args)))"),
            ("Reflect.apply(f, null, [a])", "(call (name f) (name a))"),
            ("Array.prototype.slice.call(xs, 1)", "(call (attribute slice (name xs)) (integer 1))"),
            ("f.call(g(), a)", "(call (attribute call (name f)) (call (name g)) (name a))"),
        ])
    func oneCallHoweverSpelled(source: String, expected: String) throws {
        #expect(try loweredExpression(source) == expected, "\(source)")
    }

    @Test(
        arguments: [
            ("import { exec } from 'node:child_process'", ["(importFrom child_process (alias exec))"]),
            ("import cp from 'node:child_process'", ["(import (alias child_process (name cp)))"]),
            ("const fs = require('node:fs')", ["(import (alias fs (name fs)))"]),
            ("export * from 'node:fs'", ["(importFrom fs (alias *))"]),
            ("export { readFile } from 'node:fs/promises'", ["(importFrom fs/promises (alias readFile))"]),
            ("import x from '@scope/pkg/sub'", ["(import (alias @scope/pkg/sub (name x)))"]),
            ("import { a } from '@scope/pkg'", ["(importFrom @scope/pkg (alias a))"]),
        ])
    func specifiersDropNodesPrefix(source: String, expected: [String]) throws {
        #expect(try lowering(source) == expected, "\(source)")
    }

    @Test(
        arguments: [
            ("import db from './db'", ["(importFrom . (alias db))"]),
            ("import x from '../lib/util.js'", ["(importFrom ..lib (alias util (name x)))"]),
            ("import * as u from './u.ts'", ["(importFrom . (alias u))"]),
            ("import d, * as ns from './m'", ["(importFrom . (alias m (name d)) (alias m (name ns)))"]),
            ("import { a } from './db'", ["(importFrom .db (alias a))"]),
            ("import { a } from './routes/index'", ["(importFrom .routes (alias a))"]),
            ("import { a } from './routes/index.tsx'", ["(importFrom .routes (alias a))"]),
            ("import { a } from '../../x/y.mjs'", ["(importFrom ...x.y (alias a))"]),
            ("import { a } from './a/../b.vue'", ["(importFrom .b (alias a))"]),
            ("import { a } from './'", ["(importFrom . (alias a))"]),
            ("import { a } from '..'", ["(importFrom .. (alias a))"]),
            ("import x from '.'", ["(import (alias . (name x)))"]),
            ("import './polyfill.cjs'", ["(importFrom . (alias polyfill))"]),
            ("export { a } from './m'", ["(importFrom .m (alias a))"]),
            ("export * from '../m.svelte'", ["(importFrom ..m (alias *))"]),
            ("export * as ns from './m'", ["(importFrom . (alias m (name ns)))"]),
            ("const { q } = require('./db')", ["(importFrom .db (alias q))"]),
            ("const h = require('./db').helper", ["(importFrom .db (alias helper (name h)))"]),
            ("const db = require('../db/index.js')", ["(importFrom .. (alias db))"]),
            ("const y = require('.').y", ["(importFrom . (alias y))"]),
            ("import fs = require('node:fs')", ["(import (alias fs (name fs)))"]),
            ("import u = require('./util')", ["(importFrom . (alias util (name u)))"]),
            // A dot inside a name is no directory (NestJS's `users.service.ts`); a `-` stays.
            ("import s from './users.service'", ["(importFrom . (alias users:service (name s)))"]),
            ("import { S } from '../users/users.service.js'", ["(importFrom ..users.users:service (alias S))"]),
            ("const x = require('./user-service')", ["(importFrom . (alias user-service (name x)))"]),
            ("import { a } from './v1.2/jquery.min'", ["(importFrom .v1:2.jquery:min (alias a))"]),
        ])
    func relativeSpecifiersArePythonsRelativeModules(source: String, expected: [String]) throws {
        #expect(try lowering(source, "a.ts") == expected, "\(source)")
    }

    @Test(
        "a project's file is the module its relative specifiers name",
        arguments: [
            ("routes/users.js", "routes.users", false), ("db/index.ts", "db", true), ("index.mjs", "", true),
            ("src/users/users.service.ts", "src.users.users:service", false), ("src/user-service.tsx", "src.user-service", false),
            ("components/Nav.vue", "components.Nav", false), ("lib/x.d.js", "lib.x:d", false),
        ])
    func filesAreModules(path: String, name: String, isPackage: Bool) {
        let module = JavaScriptLowering.module(ofFile: path)
        #expect(module?.name == name && module?.isPackage == isPackage, "\(path)")
    }

    @Test("type declarations and paths a specifier cannot name are no modules")
    func filesThatAreNoModules() {
        for path in ["types/user.d.ts", "a.d.mts", "README.md", "a//b.js", "a/../b.js", "x.py", "Makefile"] {
            #expect(JavaScriptLowering.module(ofFile: path) == nil, "\(path)")
        }
    }
}
