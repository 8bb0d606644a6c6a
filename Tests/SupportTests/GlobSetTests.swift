import Testing

@testable import Support

/// A walk compiles its globs once into a `GlobSet` (hash look-ups for the common shapes): it
/// answers exactly as its globs do one by one.
@Suite struct GlobSetTests {
    static let patterns = [
        "*.py", "tests/**", "**/tests/**", "src/*.py", "vendor/", "node_modules", "*.min.js", "file?.txt",
        "[abc].py", "[!abc].py", "**/*.py", "./src/**", "src/app.py", "src/gen/", "/abs/x", "*", "build",
        "docs/a/", "a*b", "*.tar.gz",
    ]
    static let paths = [
        "app.py", "pkg/sub/app.py", "app.pyc", "tests/a.py", "tests/deep/b.py", "src/tests/a.py", "src/a.py",
        "src/x/a.py", "vendor/lib/a.js", "src/vendor.js", "a/node_modules/b.js", "static/app.min.js", "file1.txt",
        "file10.txt", "b.py", "x.py", "src/a", "src/app.py", "src/gen/x.c", "src/genx/y.c", "abs/x", "build/o",
        "docs/a/b.md", "docs/ab.md", "aXb", "pkg.tar.gz", "tar.gz", "src/app.pyx",
    ]

    @Test(arguments: patterns)
    func aGlobSetAnswersAsItsGlobDoes(pattern: String) {
        let glob = Glob(pattern)
        let set = GlobSet([glob])
        for path in Self.paths {
            #expect(set.matches(path) == glob.matches(path), "\(pattern) vs \(path)")
        }
    }

    @Test func aGlobSetOfManyPatternsMatchesWhenAnyDoes() {
        let globs = Self.patterns.map(Glob.init)
        let set = GlobSet(globs)
        for path in Self.paths {
            #expect(set.matches(path) == globs.contains { $0.matches(path) }, "\(path)")
        }
        #expect(!GlobSet([]).matches("a.py"))
        // No segment at all: nothing to match, and no crash.
        #expect(!GlobSet(globs).matches("/") || globs.contains { $0.matches("/") })
        #expect(!Glob("src/gen/").matches("/") && !Glob("s[a-z]c/").matches(""))
    }
}
