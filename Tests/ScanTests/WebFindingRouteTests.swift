import Findings
import Testing

@testable import Scan

/// Issue 80: a web finding is placed at the route its URL is, with its handler's location,
/// where the scanned code serves that route.
@Suite struct WebFindingRouteTests {
    static let routes = [
        RouteLocation(path: "/notes/<int:id>", methods: ["GET"], file: "app.py", line: 12),
        RouteLocation(path: "/notes/<int:id>", methods: ["POST"], file: "app.py", line: 20),
        RouteLocation(path: "/search", methods: [], file: "views.py", line: 4),
    ]

    static func web(_ url: String, method: String = "GET") -> Finding {
        Finding(
            ruleId: "dast.sqli", tool: "dast", severity: .high, message: "m", location: Location(url: url, method: method, parameter: "q"))
    }

    @Test func placedByPathAndMethod() {
        let placed = ScanRunner.placedAtRoutes(
            [
                Self.web("http://app.test/notes/7"), Self.web("http://app.test/notes/7", method: "POST"),
                Self.web("http://app.test/search?q=1"), Self.web("http://app.test/base/search"), Self.web("http://app.test/other"),
                Finding(ruleId: "python.x", severity: .low, message: "m", location: Location(file: "app.py", startLine: 3)),
            ], routes: Self.routes)
        #expect(placed.map(\.facts.code.routeHandler) == ["app.py:12", "app.py:20", "views.py:4", "views.py:4", nil, nil])
        #expect(placed.map(\.facts.code.route) == ["/notes/<int:id>", "/notes/<int:id>", "/search", "/search", nil, nil])
    }

    @Test func suffixesOfAPath() {
        #expect(WebURLPath.suffixes(of: "/app/v1/search") == ["/v1/search", "/search"])
        #expect(WebURLPath.suffixes(of: "/search").isEmpty)
    }
}
