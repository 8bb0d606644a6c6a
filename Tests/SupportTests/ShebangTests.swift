import Testing

@testable import Support

/// Issue 76, H16: a script named for no language is read by the interpreter its first line names.
struct ShebangTests {
    @Test(
        arguments: [
            ("#!/usr/bin/env python3\nimport os", "python3"), ("#!/usr/local/bin/python3.12 -u", "python3.12"),
            ("#!/usr/bin/env -S node --no-warnings", "node"), ("#! /bin/sh", "sh"), ("#!/usr/bin/env FOO=1 bun", "bun"),
            ("#!/usr/bin/env", nil), ("# comment", nil), ("", nil),
        ] as [(String, String?)])
    func theShebangNamesTheInterpreter(head: String, interpreter: String?) {
        #expect(Shebang.interpreter(of: Array(head.utf8)) == interpreter)
    }
}
