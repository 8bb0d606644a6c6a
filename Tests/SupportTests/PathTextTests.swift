import Support
import Testing

/// `PathText` splits as `deletingLastPathComponent`/`lastPathComponent` mean it, without
/// Foundation's traps on one-character names.
@Suite struct PathTextTests {
    @Test(arguments: [
        ("a/b/c", "a/b", "c"), ("a", "", "a"), ("/a", "/", "a"), ("/", "/", "/"), ("", "", ""), ("a/", "", "a"),
        ("a//b", "a", "b"), ("d/\u{301}x", "d", "\u{301}x"), ("é/f", "é", "f"), ("/a/b/", "/a", "b"),
    ])
    func splits(path: String, directory: String, last: String) {
        #expect(PathText.directory(of: path) == directory)
        #expect(PathText.lastComponent(of: path) == last)
    }
}
