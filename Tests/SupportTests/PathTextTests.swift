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

    /// `.`, `..` and repeated or trailing slashes resolve on the text; relative paths stay.
    @Test(arguments: [
        ("/a/./b//../c/", "/a/c"), ("/", "/"), ("//", "/"), ("/..", "/"), ("/a/../..", "/"), ("/usr/bin", "/usr/bin"),
        ("/a/.hidden/..x", "/a/.hidden/..x"), ("/é/./\u{301}", "/é/\u{301}"), ("rel/../x", "rel/../x"), ("", ""),
    ])
    func lexicallyNormalized(path: String, normalized: String) {
        #expect(PathText.lexicallyNormalized(path) == normalized)
    }

    /// The extension is the last component's, after its last dot; a leading dot starts a name.
    @Test(arguments: [
        ("a/b.yaml", "yaml", "a/b"), ("b.tar.gz", "gz", "b.tar"), (".profile", "", ".profile"), ("a.d/b", "", "a.d/b"),
        ("x.", "", "x."), ("minimal.json", "json", "minimal"),
    ])
    func pathExtension(path: String, pathExtension: String, without: String) {
        #expect(PathText.pathExtension(of: path) == pathExtension)
        #expect(PathText.deletingPathExtension(of: path) == without)
    }
}
