import Testing

@testable import JavaScriptSyntax

/// Issue 76, H2: ECMAScript's Annex B.1.1 makes `<!--` (anywhere a comment may start) and `-->`
/// (first on a line, after only white space and comments) comments in scripts, and Node runs a
/// CommonJS file holding them. A module reads them as operators (`a <!--b` is `a < !(--b)`).
@Suite struct HTMLCommentTests {
    @Test("in a CommonJS script, <!-- and a line's leading --> are comments, as Node reads them")
    func scriptsReadHTMLComments() throws {
        let source = """
            <!-- the file opens with one
            var a = 1; <!-- and one after code
              --> a closing one first on its line
            /* a comment */ --> after a comment too
            /* a comment
               over lines */ --> after one that spans lines
            eval(a);

            """
        for name in ["app.js", "app.cjs", "app.jsx", "script"] {
            let root = try program(source, name)
            #expect(root.children.map(\.kind) == [.variableDeclaration, .expressionStatement], "\(name)")
        }
        // `-->` first in the input is a comment too (V8's reading).
        #expect(try program("--> opening\neval(a);").children.count == 1)
    }

    @Test("--> that does not start its line is the operators it spells, and <!-- inside strings is text")
    func operatorsStayOperators() throws {
        // `x-->0` is `(x--) > 0`; `a --> b` mid-line too.
        #expect(try statement("while (x-->0) f();").contains("(binary >"))
        #expect(try expression("a --> b").hasPrefix("(binary >"))
        // A string, a template and a regex hold the characters, not a comment.
        #expect(try expression("'<!-- x'") == #"(string "<!-- x")"#)
        #expect(try program("s = `<!--`; eval(s);").children.count == 2)
        #expect(try program("r = /<!--/; eval(r);").children.count == 2)
    }

    @Test("a module (.mjs, a .js file with import or export, TypeScript) reads <!-- as operators")
    func modulesDoNot() throws {
        // `a <!--b` in a module: `a < !(--b)`.
        let expression = "x = a <!--b;\n"
        #expect(try program(expression, "m.mjs").children.count == 1)
        #expect(JavaScriptGoal(fileName: "m.mjs") == .module)
        let module = try program("import fs from 'fs';\n" + expression, "m.js")
        #expect(module.children.count == 2)
        #expect(module.children[1].sexpr.contains("(unary !"), "\(module.children[1].sexpr)")
        #expect(try program(expression, "m.ts").children[0].sexpr.contains("(unary !"))
        // As a script the rest of the line is a comment: `x = a` stays.
        let script = try program(expression, "s.cjs")
        #expect(!script.children[0].sexpr.contains("(unary !"), "\(script.children[0].sexpr)")
        // A module cannot hold an HTML-like comment where nothing else parses: the file's error
        // names the line, as Node refuses to run it.
        #expect(rejection("export const a = 1;\n<!-- not a comment here\n", "m.js") != nil)
        #expect(rejection("<!-- a comment\n", "m.mjs") != nil)
    }
}
