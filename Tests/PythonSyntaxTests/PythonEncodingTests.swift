import Testing

@testable import PythonSyntax

/// PEP 263 `coding:` cookies: the file is decoded as declared, as CPython does (expected values are
/// CPython's `bytes.decode` of the same bytes).
@Suite("Python source encodings")
struct PythonEncodingTests {
    struct Case: Sendable, CustomStringConvertible {
        var cookie: String
        var literal: [UInt8]
        var value: String
        var description: String { cookie }
    }

    static let decoded: [Case] = [
        // CPython's Lib/test/encoded_modules/module_koi8_r.py; pylint's implicit_str_concat_latin1.py.
        Case(cookie: "koi8-r", literal: [0xF0, 0xD2, 0xC9], value: "При"),
        Case(cookie: "latin_1", literal: [0x43, 0x61, 0x66, 0xE9], value: "Café"),
        Case(cookie: "Latin-1", literal: [0xE9], value: "é"),
        Case(cookie: "iso-8859-15", literal: [0xA4], value: "€"),
        Case(cookie: "cp1252", literal: [0x80], value: "€"),
        Case(cookie: "windows-1251", literal: [0xCF, 0xF0], value: "Пр"),
        Case(cookie: "cp1253", literal: [0xE1], value: "α"),
        // The second byte of ソ is a backslash in ASCII: decoded first, it escapes nothing.
        Case(cookie: "shift_jis", literal: [0x83, 0x5C], value: "ソ"),
        Case(cookie: "euc-kr", literal: [0xB0, 0xA1], value: "가"),
        Case(cookie: "gbk", literal: [0xC4, 0xE3], value: "你"),
        Case(cookie: "big5", literal: [0xA4, 0x40], value: "一"),
        // Valid UTF-8 read as Latin-1 all the same: the cookie decides.
        Case(cookie: "latin-1", literal: [0xC3, 0xA9], value: "Ã©"),
        Case(cookie: "utf-8", literal: [0xC3, 0xA9], value: "é"),
        Case(cookie: "utf8", literal: [0xC3, 0xA9], value: "é"),
    ]

    @Test("a string literal decodes as the cookie says", arguments: decoded)
    func decodes(_ c: Case) throws {
        let source = Array("# -*- coding: \(c.cookie) -*-\ns = '".utf8) + c.literal + Array("'\n".utf8)
        let module = try PythonParser.parseModule(bytes: source, fileName: "e.py")
        #expect(module.root.children[0].children[1].text == c.value)
    }

    @Test("the cookie may be on the second line, after a comment, in any spelling CPython reads")
    func cookiePlacement() throws {
        let vim = Array("#!/usr/bin/python\n# vim: set fileencoding=latin_1 :\nx = '".utf8) + [0xE9] + Array("'\n".utf8)
        #expect(try PythonParser.parseModule(bytes: vim, fileName: "e.py").root.children[0].children[1].text == "é")
        // Not after code: the file is UTF-8, and 0xE9 alone is not.
        let late = Array("x = 1\n# coding: latin-1\nx = '".utf8) + [0xE9] + Array("'\n".utf8)
        #expect(throws: PythonSyntaxError.self) { try PythonParser.parseModule(bytes: late, fileName: "e.py") }
    }

    /// Bytes CPython refuses, and the message's gist.
    static let refused: [(bytes: [UInt8], message: String)] = [
        // CPython's bad_coding2.py, pylint's unknown_encoding_jython.py: a BOM says UTF-8, the cookie otherwise.
        ([0xEF, 0xBB, 0xBF] + Array("# coding: latin-1\nx = 1\n".utf8), "with BOM"),
        ([0xEF, 0xBB, 0xBF] + Array("# coding: utf8\nx = 1\n".utf8), "with BOM"),
        (Array("# coding: utf8\nx = '".utf8) + [0xE9] + Array("'\n".utf8), "does not decode as utf8"),
        (Array("# coding: ascii\nx = '".utf8) + [0xE9] + Array("'\n".utf8), "does not decode as ascii"),
        (Array("# coding: no-such-codec\nx = '".utf8) + [0xE9] + Array("'\n".utf8), "unsupported encoding"),
        // A UTF-16 file could not hold its ASCII cookie line (pylint's and CPython's test data).
        (Array("# -*- coding: utf-16 -*-\nx = 1\n".utf8), "not ASCII-compatible"),
        // Invalid UTF-8 outside a comment, even on a line that has one.
        (Array("x = '".utf8) + [0xE9] + Array("'  # fine\n".utf8), "invalid UTF-8"),
        (Array("# a comment\n'''".utf8) + [0xE9] + Array("  # not a comment'''\n".utf8), "invalid UTF-8"),
    ]

    @Test("a BOM with another cookie, and undecodable bytes, are refused", arguments: refused.indices)
    func refuses(_ index: Int) throws {
        let c = Self.refused[index]
        #expect {
            try PythonParser.parseModule(bytes: c.bytes, fileName: "e.py")
        } throws: { error in
            (error as? PythonSyntaxError)?.message.contains(c.message) == true
        }
    }

    /// CPython's `ast.parse` decodes tokens, never comments: invalid UTF-8 there is accepted.
    @Test(
        "invalid UTF-8 inside comments is accepted, as by ast.parse",
        arguments: [
            Array("#4".utf8) + [0xB8, 0x47, 0xBF, 0x4E],
            Array("# caf".utf8) + [0xE9] + Array("\nx = 1\n".utf8),
            Array("x = 1  # caf".utf8) + [0xE9] + Array("\n# ".utf8) + [0xFF] + Array("\ny = 2\n".utf8),
        ])
    func invalidUTF8InComments(_ bytes: [UInt8]) throws {
        let module = try PythonParser.parseModule(bytes: bytes, fileName: "e.py")
        #expect(module.comments.count >= 1)
    }

    @Test("a BOM with a UTF-8 cookie parses")
    func bomWithUTF8Cookie() throws {
        let bytes = [0xEF, 0xBB, 0xBF] + Array("# -*- coding: utf-8 -*-\nx = 'é'\n".utf8)
        #expect(try PythonParser.parseModule(bytes: bytes, fileName: "e.py").root.children.count == 1)
    }
}
