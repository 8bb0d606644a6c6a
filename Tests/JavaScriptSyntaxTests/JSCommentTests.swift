import Testing

@testable import JavaScriptSyntax

/// `JSComment.offsets` (issue 76, H15): the comments the parser reads, and no `//` or `/*` inside
/// a literal, whichever way the grammar's ambiguities were read ahead.
@Suite struct JSCommentTests {
    /// The offsets of every `REAL` marker's comment sign in `source` (each real comment holds the word).
    static func realComments(_ source: String) -> Set<Int> {
        let bytes = Array(source.utf8)
        var found = Set<Int>()
        for i in bytes.indices where bytes[i...].starts(with: Array("REAL".utf8)) {
            var j = i - 1
            while j > 0 && bytes[j] == UInt8(ascii: " ") { j -= 1 }
            // `// REAL` or `/* REAL`: the sign is the slash before `/` or `*`.
            if j > 0 && (bytes[j] == UInt8(ascii: "/") || bytes[j] == UInt8(ascii: "*")) { found.insert(j - 1) }
        }
        return found
    }

    @Test(arguments: [
        ("a.js", #"const s = "// x", t = '/* x */'; // REAL"#),
        ("a.js", "const u = `// x ${`/* x */`} ${a /* REAL */}`;"),
        ("a.js", #"const r = /\/\/ x/g, q = /[/*]/; /* REAL */ const d = a / b // REAL"#),
        ("a.js", #"const f = (a = "// x", b = /\/\//) => a; // REAL"#),
        ("a.js", "const e = <p title=\"// x\">// x {/* REAL */}</p>;"),
        ("a.tsx", "const g = <T,>(x: T) => x; // REAL\nconst h = <div>/* x */</div>;"),
        ("a.ts", "f<T>(x); // REAL\nconst y = a < b; const z = c > /x\\/\\//.exec(d).length; // REAL"),
        ("a.js", "#!/usr/bin/env node\n// REAL\nlet i = 1 // REAL\n/* REAL */ i++"),
    ])
    func onlyRealCommentsAreComments(file: String, source: String) throws {
        let offsets = try #require(JSComment.offsets(in: Array(source.utf8), fileName: file), "\(source)")
        #expect(offsets == Self.realComments(source), "\(source)")
    }

    @Test func nothingIsKnownOfAFileTheParserRefusesOrThatIsNoJavaScript() {
        #expect(JSComment.offsets(in: Array("const = ;".utf8), fileName: "a.js") == nil)
        #expect(JSComment.offsets(in: Array("# x\n".utf8), fileName: "a.py") == nil)
    }
}
