import Testing
@testable import Support

@Suite struct GlobTests {
    @Test(arguments: [
        ("*.py", "app.py", true), ("*.py", "pkg/sub/app.py", true), ("*.py", "app.pyc", false),
        ("tests/**", "tests/a.py", true), ("tests/**", "tests/deep/b.py", true), ("tests/**", "src/tests/a.py", false),
        ("**/tests/**", "src/tests/a.py", true), ("src/*.py", "src/a.py", true), ("src/*.py", "src/x/a.py", false),
        ("vendor/", "vendor/lib/a.js", true), ("vendor/", "src/vendor.js", false), ("node_modules", "a/node_modules/b.js", true),
        ("*.min.js", "static/app.min.js", true), ("file?.txt", "file1.txt", true), ("file?.txt", "file10.txt", false),
        ("[abc].py", "b.py", true), ("[!abc].py", "b.py", false), ("**/*.py", "x.py", true), ("./src/**", "src/a", true),
    ])
    func matches(pattern: String, path: String, expected: Bool) {
        #expect(Glob(pattern).matches(path) == expected, "\(pattern) vs \(path)")
    }
}
