/// Files as tools and people write them, for the generated-code tests: each built here, none
/// copied from a project.
enum GeneratedCodeSamples {
    /// Minified code: statements run together on one line, as a minifier prints them.
    static func minifiedLine(bytes: Int) -> String {
        let statement = "function q(a,b){return a.map(function(c){return c*b})}var r=q([1,2,3],2);if(r.length>2){r.pop()}"
        return String(String(repeating: statement, count: bytes / statement.count + 1).prefix(bytes))
    }

    /// Closure Compiler's output: minified code broken near 500 columns wherever a break may
    /// go, so its lines run from a few hundred bytes to just past 500.
    static func closureWrapped(lines: Int) -> String {
        let code = minifiedLine(bytes: lines * 520)
        var text = "(function(){"
        var rest = code[...]
        for i in 0..<lines {
            let length = 260 + (i * 97) % 260
            text += rest.prefix(length) + "\n"
            rest = rest.dropFirst(length)
        }
        return text + "})();\n"
    }

    /// A minified library release: its license banner, one long line, its source map trailer.
    static let minifiedLibrary =
        "/*! Chartish v2.1.0 | (c) 2024 Chartish contributors | MIT License */\n" + minifiedLine(bytes: 6_000)
        + "\n//# sourceMappingURL=chartish.min.js.map\n"

    /// A person's file that is merely long: `functions` short functions of ordinary lines.
    static func handWritten(functions: Int) -> String {
        (0..<functions).map { i in
            """
            // Looks up record \(i) for the caller.
            function handler\(i)(request, response) {
              const id = request.query.id;
              if (!id) { return response.status(400).send('missing id'); }
              return response.json({ id: id, index: \(i) });
            }

            """
        }.joined()
    }

    /// webpack's development bundle: its bootstrap, its banner lines, its module table.
    static let webpackDevelopmentBundle = """
        /******/ (() => { // webpackBootstrap
        /******/ \tvar __webpack_modules__ = ({
        "./src/index.js": ((module) => {
          module.exports = function greet(name) { return 'hi ' + name; };
        })
        /******/ \t});
        /******/ \tfunction __webpack_require__(moduleId) {
        /******/ \t\treturn __webpack_modules__[moduleId](module, module.exports, __webpack_require__);
        /******/ \t}
        /******/ })();

        """
}
