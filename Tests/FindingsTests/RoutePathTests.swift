import Findings
import Testing

/// Issue 80: the placeholders of a route's path in each framework's spelling, and the path a
/// proof requests.
@Suite struct RoutePathTests {
    @Test("names in Flask, Starlette and Express spellings")
    func names() {
        #expect(RoutePath.names(in: "/notes/<int:id>/<name>") == ["id", "name"])
        #expect(RoutePath.names(in: "/files/{path:path}/{id}") == ["path", "id"])
        #expect(RoutePath.names(in: "/users/:id/posts/:post_id") == ["id", "post_id"])
        #expect(RoutePath.names(in: "/plain/a:b") == [])
        #expect(RoutePath.names(in: "/open/<unclosed") == [])
    }

    @Test("filled: every placeholder takes the value; the marked one's segment is known")
    func filled() {
        let (path, segment) = RoutePath.filled("/users/<int:uid>/notes/<name>", with: "1", marking: "name")
        #expect(path == "/users/1/notes/1")
        #expect(segment == 4)
        #expect(RoutePath.filled("/a/:id", with: "7", marking: "id") == ("/a/7", 2))
        #expect(RoutePath.filled("/search", with: "1", marking: "q") == ("/search", nil))
    }

    @Test("a URL pattern as a path: Django's path() as it is, a literal regex with its groups, nil for the rest")
    func fromPattern() {
        #expect(RoutePath.fromPattern("polls/<int:id>/") == "polls/<int:id>/")
        #expect(RoutePath.fromPattern("^polls/(?P<id>\\d+)/$") == "polls/<id>/")
        #expect(RoutePath.fromPattern("^sql_lab$") == "sql_lab")
        #expect(RoutePath.fromPattern("/user/([0-9]+)/(\\w+)") == "/user/<_1>/<_2>")
        #expect(RoutePath.fromPattern("^a\\.txt$") == "a.txt")
        #expect(RoutePath.fromPattern("^(?:a|b)/$") == nil)
        #expect(RoutePath.fromPattern("^a|b$") == nil)
        #expect(RoutePath.fromPattern("^x[0-9]$") == nil)
        #expect(RoutePath.fromPattern("^(unclosed") == nil)
        #expect(RoutePath.joined("", "polls/") == "/polls/")
        #expect(RoutePath.joined("/app/", "polls/<id>/") == "/app/polls/<id>/")
        #expect(RoutePath.joined("/app", "/x") == "/app/x")
    }

    @Test("a URL path a route serves: a placeholder is one segment, a path converter the rest")
    func matches() {
        #expect(RoutePath.matches("/notes/<int:id>", "/notes/7"))
        #expect(RoutePath.matches("/notes/<int:id>/", "/notes/7"))
        #expect(!RoutePath.matches("/notes/<int:id>", "/notes"))
        #expect(!RoutePath.matches("/notes/<int:id>", "/notes/7/edit"))
        #expect(RoutePath.matches("/files/<path:name>", "/files/a/b.txt"))
        #expect(RoutePath.matches("/users/:id/posts", "/users/3/posts"))
        #expect(RoutePath.matches("/item-<id>", "/item-42"))
        #expect(!RoutePath.matches("/item-<id>", "/item-"))
        #expect(RoutePath.matches("/", "/"))
        #expect(!RoutePath.matches("/search", "/searches"))
    }
}
