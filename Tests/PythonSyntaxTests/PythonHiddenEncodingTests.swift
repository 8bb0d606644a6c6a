import Testing

@testable import PythonSyntax

/// Issue 26: a coding cookie under which plain ASCII reads as other characters hides code in what
/// looks like a comment. CPython decodes and runs it; the parser must see what CPython sees, or refuse.
@Suite("Python source encodings that hide code")
struct PythonHiddenEncodingTests {
    /// Files CPython 3.11 runs as `import os` then `os.system(input())` on line 4 (checked with
    /// `exec(compile(bytes, ...))`, which is how imports read source).
    static let hiding: [String] = [
        "# -*- coding: unicode_escape -*-\nimport os\n# \\u000aos.system(input())\n",
        "# coding: raw_unicode_escape\nimport os\n# \\u000aos.system(input())\n",
        "# coding: utf-7\nimport os\n# +AAo-os.system(input())\n",
        "# coding: UTF_7\nimport os\n# +AAo-os.system(input())\n",
        "# vim: set fileencoding=Unicode-Escape :\nimport os\n# \\x0aos.system(input())\n",
    ]

    /// The dotted names of the calls in a module, with their lines.
    static func calls(_ module: PythonModule) -> [String] {
        module.root.preorder.filter { $0.kind == .call }.compactMap { call in
            call.children.first?.dottedName.map { "\($0)@\(call.range.start.line)" }
        }
    }

    @Test("the hidden call is parsed where CPython runs it", arguments: hiding)
    func hiddenCallIsSeen(_ source: String) throws {
        let module = try PythonParser.parseModule(bytes: Array(source.utf8), fileName: "h.py")
        #expect(Self.calls(module).contains("os.system@4"), "\(Self.calls(module))")
    }

    /// Codecs this parser cannot decode, declared on pure ASCII that may read differently in them:
    /// refused, never parsed as it is.
    static let undecodable: [[UInt8]] = [
        Array("# coding: hz\nimport os\nos.system(input())  # ~{<:~}\n".utf8),
        Array("# coding: cp037\n".utf8) + [0x89, 0x94, 0x97, 0x96, 0x99, 0xA3, 0x40, 0x96, 0xA2, 0x25],
        Array("# coding: iso2022_kr\nx = 1\n".utf8),
        Array("# coding: utf-7\nx = '+AG'\n".utf8),
        // `\N{...}` needs the Unicode name table: refused rather than guessed.
        Array("# coding: unicode_escape\nx = 1 # \\N{LINE FEED}os.system(input())\n".utf8),
    ]

    @Test("a codec that is not decoded here is refused", arguments: undecodable)
    func undecodableIsRefused(_ bytes: [UInt8]) throws {
        #expect {
            try PythonParser.parseModule(bytes: bytes, fileName: "h.py")
        } throws: { error in
            guard let error = error as? PythonSyntaxError, error.line == 1 else { return false }
            return error.message.contains("does not decode") || error.message.contains("unsupported encoding")
        }
    }

    @Test("an ASCII-transparent codec Foundation lacks still parses pure ASCII")
    func asciiTransparentCodecParses() throws {
        for name in ["mac-roman", "cp866", "euc_jp", "ISO-8859-13", "ascii", "646"] {
            let module = try PythonParser.parseModule(bytes: Array("# coding: \(name)\nimport os\n".utf8), fileName: "a.py")
            #expect(module.root.children.count == 1, "\(name)")
        }
    }
}
