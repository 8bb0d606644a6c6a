import PythonSyntax
import Testing

/// The Python reader on mutated sources: encoding cookies (unicode_escape, utf-7, latin-1...),
/// then the lexer and parser; a module or a `PythonSyntaxError`, never a trap.
@Suite struct PythonReaderFuzzTests {
    static let dictionary = [
        "# -*- coding: utf-7 -*-\n", "# coding=unicode_escape\n", "# coding: latin-1\n", "# vim: set fileencoding=cp1252\n",
        "def ", "class ", "if ", ":", "\n", "    ", "\t", "(", ")", "[", "]", "{", "}", "f'{", "}'", "'''", "\"\"\"",
        "\\u000a", "+AAo-", "lambda", "match ", "case ", "async ", "await ", "yield ", "*", "**", "@", ":=", "\\\n",
        "import os", "os.system(x)", "#", "b'", "r'", "rb'",
    ]

    @Test func mutatedSources() {
        let seeds =
            FuzzSeeds.files("Fixtures/heal", limit: 48) { $0.hasSuffix(".py") }
            + [
                Array("# -*- coding: unicode_escape -*-\nx = 1 #\\u000aimport os\n".utf8),
                Array("# coding: utf-7\nx = '+AGEAYgBj-'\n".utf8),
                Array("@d\nasync def f(a, /, *b, c=1, **d) -> int:\n    match a:\n        case [1, *r] if r: return f'{a!r:>{c}}'\n".utf8),
            ]
        let typed: (any Error) -> Bool = { $0 is PythonSyntaxError }
        let problems = fuzz(seeds: seeds, dictionary: Self.dictionary, seed: 263, iterations: 500) { bytes in
            contractBroken(typed: typed) { _ = try PythonSource(bytes: bytes, fileName: "fuzz.py") }
                ?? contractBroken(typed: typed) { _ = try PythonParser.parseModule(bytes: bytes, fileName: "fuzz.py") }
        }
        #expect(problems.isEmpty, "\(problems)")
    }
}
