import JavaScriptLowering
import PythonSyntax
import Testing

/// Module specifiers named as the engine names modules.
@Suite struct ModuleTests {
    @Test(
        arguments: [
            ("import { exec } from 'node:child_process'", ["(importFrom child_process (alias exec))"]),
            ("import cp from 'node:child_process'", ["(import (alias child_process (name cp)))"]),
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
            ("import fs = require('node:fs')", ["(import (alias fs (name fs)))"]),
            ("import u = require('./util')", ["(importFrom . (alias util (name u)))"]),
        ])
    func relativeSpecifiersArePythonsRelativeModules(source: String, expected: [String]) throws {
        #expect(try lowering(source, "a.ts") == expected, "\(source)")
    }
}
