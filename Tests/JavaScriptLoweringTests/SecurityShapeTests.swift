import JavaScriptLowering
import SyntaxTree
import Testing

/// The shapes the engine's rules and taint rely on, on the code they are written for.
@Suite struct SecurityShapeTests {
    @Test func commandInjectionIsACallOfAConcatenation() throws {
        #expect(
            try loweredExpression(#"exec("ls " + req.query.dir)"#)
                == #"(call (name exec) (binOp + (string "ls ") (attribute dir (attribute query (name req)))))"#)
    }

    @Test func templateLiteralIsAnFString() throws {
        #expect(
            try loweredExpression("res.send(`<p>${req.query.name}</p>`)")
                == #"(call (attribute send (name res)) (joinedStr (string "<p>") (formattedValue (attribute name (attribute query (name req))) _) (string "</p>")))"#
        )
    }

    @Test func destructuredParamsFlowIntoAQuery() throws {
        #expect(
            try lowering(#"const { id } = req.params; db.query("SELECT * FROM t WHERE id=" + id)"#) == [
                "(assign (name id) (attribute id (attribute params (name req))))",
                #"(exprStmt (call (attribute query (name db)) (binOp + (string "SELECT * FROM t WHERE id=") (name id))))"#,
            ])
    }

    @Test func expressRouteHandlerIsHoistedBeforeItsRoute() throws {
        let source = "app.get('/x', (req, res) => { const n = req.query.n; res.send(n); });"
        #expect(
            try lowering(source) == [
                "(functionDef #fn0 (decorators) (typeParams) (parameters (parameter req _ _) (parameter res _ _)) _ (block (assign (name n) (attribute n (attribute query (name req)))) (exprStmt (call (attribute send (name res)) (name n)))))",
                #"(exprStmt (call (attribute get (name app)) (string "/x") (name #fn0)))"#,
            ])
    }

    @Test func nestControllerKeepsMethodAndParameterDecorators() throws {
        let source = """
            @Controller('users')
            export class UsersController {
              constructor(private readonly users: UsersService) {}
              @Get(':id')
              findOne(@Param('id') id: string) { return this.users.find(id); }
            }
            """
        let module = try lowered(source, "users.controller.ts")
        #expect(module.children.count == 1)
        let cls = module.children[0]
        #expect(cls.kind == .classDef && cls.text == "UsersController")
        #expect(cls.children[0].sexpr == #"(decorators (decorator (call (name Controller) (string "users"))))"#)
        let methods = cls.children[3].children
        #expect(methods.map(\.text) == ["__init__", "findOne"])
        #expect(
            methods[0].sexpr
                == "(functionDef __init__ (decorators) (typeParams) (parameters (parameter this _ _) (parameter users (name UsersService) _)) _ (block (assign (attribute users (name this)) (name users))))"
        )
        #expect(methods[1].children[0].sexpr == #"(decorators (decorator (call (name Get) (string ":id"))))"#)
        #expect(
            methods[1].children[2].sexpr
                == #"(parameters (parameter this _ _) (parameter id (subscript (name Annotated) (tuple (name string) (call (name Param) (string "id")))) _))"#
        )
        #expect(
            methods[1].children[4].sexpr
                == "(block (return (call (attribute find (attribute users (name this))) (name id))))")
    }

    @Test func reactDangerousHTMLIsAKeywordArgument() throws {
        #expect(
            try loweredExpression("<div dangerouslySetInnerHTML={{__html: html}} />")
                == #"(call jsx (string "div") (keyword dangerouslySetInnerHTML (dict (keyValue (string "__html") (name html)))))"#)
        #expect(
            try loweredExpression("<Comp a={x} b>text {y}</Comp>")
                == #"(call jsx (name Comp) (string "text ") (name y) (keyword a (name x)) (keyword b (true)))"#)
        #expect(
            try loweredExpression("<><Foo.Bar {...p} /></>")
                == "(call jsx (none) (call jsx (attribute Bar (name Foo)) (doubleStarred (name p))))")
    }

    @Test func namedImportsResolveToTheModulesMembers() throws {
        #expect(try lowering("import { exec as run } from 'child_process'") == ["(importFrom child_process (alias exec (name run)))"])
        #expect(
            try lowering("import cp, { spawn } from 'child_process'; import * as fs from 'fs'; import 'polyfill'") == [
                "(import (alias child_process (name cp)))", "(importFrom child_process (alias spawn))",
                "(import (alias fs (name fs)))", "(import (alias polyfill))",
            ])
        #expect(try lowering("import type { T } from 'm'; import { type U, v } from 'm'", "a.ts") == ["(importFrom m (alias v))"])
        #expect(try lowering("import x = require('m')", "a.ts") == ["(import (alias m (name x)))"])
        #expect(try lowering("const cp = require('child_process')") == ["(import (alias child_process (name cp)))"])
        #expect(try lowering("const { exec } = require('node:child_process')") == ["(importFrom child_process (alias exec))"])
    }

    @Test func typeScriptAssertionsAreTheirExpression() throws {
        #expect(
            try loweredExpression("f(x as string, y!, z satisfies T, g<T>)", "a.ts")
                == "(call (name f) (name x) (name y) (name z) (name g))")
        #expect(try loweredExpression("<string>x", "a.ts") == "(name x)")
    }

    @Test func optionalChainingIsPlainAccess() throws {
        #expect(try loweredExpression("a?.b?.[c]?.(d)") == "(call (subscript (attribute b (name a)) (name c)) (name d))")
    }

    @Test func classFieldsAndParameterProperties() throws {
        let source = """
            class Repo extends Base {
              table: string = 'users';
              static count = 0;
              #secret;
              constructor(public db: Db, name) { super(name); }
              get size() { return 1; }
              set size(v) {}
              static make() { return new Repo(null); }
              static { Repo.count = 1; }
            }
            """
        let cls = try lowered(source, "a.ts").children[0]
        #expect(cls.children[2].sexpr == "(arguments (name Base))")
        #expect(
            cls.children[3].children.map(\.sexpr) == [
                #"(annAssign (name table) (name string) (string "users"))"#,
                "(assign (name count) (integer 0))",
                "(assign (name #secret) (none))",
                "(functionDef __init__ (decorators) (typeParams) (parameters (parameter this _ _) (parameter db (name Db) _) (parameter name _ _)) _ (block (assign (attribute db (name this)) (name db)) (exprStmt (call (name super) (name name)))))",
                "(functionDef size (decorators (decorator (name property))) (typeParams) (parameters (parameter this _ _)) _ (block (return (integer 1))))",
                "(functionDef size (decorators (decorator (attribute setter (name size)))) (typeParams) (parameters (parameter this _ _) (parameter v _ _)) _ (block))",
                "(functionDef make (decorators (decorator (name staticmethod))) (typeParams) (parameters) _ (block (return (call new (name Repo) (none)))))",
                "(assign (attribute count (name Repo)) (integer 1))",
            ])
    }
}
