import JavaScriptLowering
import JavaScriptSyntax
import SyntaxTree
import Testing

/// Function and class expressions become `#fnN` definitions just before their statement.
@Suite struct HoistingTests {
    /// `(parameters ...)` and body of a function without decorators or type parameters, named `name`.
    private func def(_ name: String, _ parameters: String, _ body: String, kind: String = "functionDef") -> String {
        "(\(kind) \(name) (decorators) (typeParams) (parameters\(parameters.isEmpty ? "" : " " + parameters)) _ (block\(body.isEmpty ? "" : " " + body)))"
    }

    @Test func callbackArgumentIsHoistedBeforeItsStatement() throws {
        #expect(
            try lowering("app.get('/x', (req, res) => { res.send(req.query.q) })") == [
                def(
                    "#fn0", "(parameter req _ _) (parameter res _ _)",
                    "(exprStmt (call (attribute send (name res)) (attribute q (attribute query (name req)))))"),
                #"(exprStmt (call (attribute get (name app)) (string "/x") (name #fn0)))"#,
            ])
        #expect(
            try lowering("router.post('/', async function (req) { await save(req.body); })") == [
                def(
                    "#fn0", "(parameter req _ _)", "(exprStmt (await (call (name save) (attribute body (name req)))))",
                    kind: "asyncFunctionDef"),
                #"(exprStmt (call (attribute post (name router)) (string "/") (name #fn0)))"#,
            ])
    }

    @Test func declaredFunctionsKeepTheirNames() throws {
        #expect(try lowering("const f = () => 1") == [def("f", "", "(return (integer 1))")])
        #expect(try lowering("const x = function g() {}") == [def("x", "", "")])
        #expect(
            try lowering("const C = class { m() {} }") == [
                "(classDef C (decorators) (typeParams) (arguments) (block \(def("m", "(parameter this _ _)", ""))))"
            ])
        #expect(
            try lowering("export default (req, res) => res.end()") == [
                def("default", "(parameter req _ _) (parameter res _ _)", "(return (call (attribute end (name res))))")
            ])
    }

    @Test func nestedFunctionsHoistIntoTheirOwnFunction() throws {
        #expect(
            try lowering("const f = x => y => 1") == [
                def("f", "(parameter x _ _)", "\(def("#fn0", "(parameter y _ _)", "(return (integer 1))")) (return (name #fn0))")
            ])
        #expect(
            try lowering("app.use((req, res) => { items.forEach(i => res.write(i)); })") == [
                def(
                    "#fn0", "(parameter req _ _) (parameter res _ _)",
                    "\(def("#fn1", "(parameter i _ _)", "(return (call (attribute write (name res)) (name i)))")) (exprStmt (call (attribute forEach (name items)) (name #fn1)))"
                ),
                "(exprStmt (call (attribute use (name app)) (name #fn0)))",
            ])
        #expect(
            try lowering("if (a) { run(() => 1); }") == [
                "(if (name a) (block \(def("#fn0", "", "(return (integer 1))")) (exprStmt (call (name run) (name #fn0)))) _)"
            ])
    }

    @Test func testsOfLoopsAndIfsHoistBeforeTheStatement() throws {
        #expect(
            try lowering("while (items.some(i => i.bad)) { pop(); }") == [
                def("#fn0", "(parameter i _ _)", "(return (attribute bad (name i)))"),
                "(while (call (attribute some (name items)) (name #fn0)) (block (exprStmt (call (name pop)))) _)",
            ])
        #expect(
            try lowering("if (check(() => ok)) {}") == [
                def("#fn0", "", "(return (name ok))"), "(if (call (name check) (name #fn0)) (block) _)",
            ])
        // A switch's subject is lowered once, so its function is hoisted once.
        let switched = try lowering("switch (pick(() => 1)) { case 1: a(); break; case 2: b(); }")
        #expect(switched.count == 2 && switched[0] == def("#fn0", "", "(return (integer 1))"))
        #expect(!switched[1].contains("#fn1"))
    }

    @Test func defaultParameterHoistsBeforeTheDefinition() throws {
        #expect(
            try lowering("function f(cb = () => 1) { return cb(); }") == [
                def("#fn0", "", "(return (integer 1))"),
                def("f", "(parameter cb _ (name #fn0))", "(return (call (name cb)))"),
            ])
    }

    @Test func classFieldsHoistIntoTheClassBody() throws {
        #expect(
            try lowering("class A { handler = (e) => go(e); static make = function () {} }") == [
                "(classDef A (decorators) (typeParams) (arguments) (block \(def("#fn0", "(parameter e _ _)", "(return (call (name go) (name e)))")) (assign (name handler) (name #fn0)) \(def("#fn1", "", "")) (assign (name make) (name #fn1))))"
            ])
    }

    @Test func objectMethodsAreHoisted() throws {
        #expect(
            try lowering("module.exports = { m() { return 1; }, n: function () {}, k: 1 }") == [
                def("#fn0", "", "(return (integer 1))"), def("#fn1", "", ""),
                #"(assign (attribute exports (name module)) (dict (keyValue (string "m") (name #fn0)) (keyValue (string "n") (name #fn1)) (keyValue (string "k") (integer 1))))"#,
            ])
    }

    @Test func classExpressionsAndImmediateCallsAreHoisted() throws {
        #expect(
            try lowering("register(class extends Base { run() {} })") == [
                "(classDef #fn0 (decorators) (typeParams) (arguments (name Base)) (block \(def("run", "(parameter this _ _)", ""))))",
                "(exprStmt (call (name register) (name #fn0)))",
            ])
        #expect(
            try lowering("(function () { init(); })();") == [
                def("#fn0", "", "(exprStmt (call (name init)))"), "(exprStmt (call (name #fn0)))",
            ])
    }

    @Test func jsxHandlersHoistIntoTheComponent() throws {
        let handler = def("#fn0", "", "(return (call (name go)))")
        #expect(
            try lowering("function C() { return <button onClick={() => go()} />; }") == [
                def("C", "", handler + #" (return (call jsx (string "button") (keyword onClick (name #fn0))))"#)
            ])
    }

    @Test func aHoistedDefinitionHasTheRangeOfItsExpression() throws {
        let source = "f(1,\n  (a) => a)"
        let root = try JavaScriptParser.parse(source: source, fileName: "a.js").root
        var arrow: JSNode?
        root.forEachNode { if $0.kind == .arrowFunction { arrow = $0 } }
        let module = JavaScriptLowering.lower(root)
        #expect(module.children.count == 2)
        #expect(module.children[0].range == arrow?.range)
        let reference = module.children[1].children[0].children[2]
        #expect(reference.sexpr == "(name #fn0)" && reference.range == arrow?.range)
        #expect(module.children[0].range.start.line == 2)
    }
}
