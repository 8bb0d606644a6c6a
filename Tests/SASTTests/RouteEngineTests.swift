import Testing

@testable import SAST

/// Route checks over a project of several files: URL patterns and hooks in other modules.
@Suite struct RouteEngineTests {
    static let rule = """
        id: python.t-missing-auth
        mode: route
        check: missing-authentication
        message: m
        severity: high
        cwe: [306]
        authentication:
          guards: (?i)login_required
          conditions: (?i)(is_authenticated|session)
        public: (?i)(login|index)
        acts-on: (?i)(objects|query|session)

        """

    static func engine() throws -> RouteEngine {
        guard case .route(let rule) = try RuleLoader.parseAny(rule, file: "t.yaml") else { throw CancellationError() }
        return RouteEngine(rules: [rule])
    }

    @Test func djangoViewsRoutedFromAnotherFile() throws {
        let views = try RouteModelTests.handlers(
            """
            from django.contrib.auth.decorators import login_required

            @login_required
            def a(request):
                return A.objects.all()

            @login_required
            def b(request):
                return B.objects.all()

            def c(request):
                return C.objects.all()

            def helper(request):
                return D.objects.all()
            """, file: "views.py")
        let urls = try RouteModelTests.handlers(
            """
            from django.urls import path
            from . import views
            urlpatterns = [path("a/", views.a), path("b/", views.b), path("c/", views.c)]
            """, file: "urls.py")
        let found = try Self.engine().findings(handlers: views + urls)
        #expect(found.map { $0.location.startLine } == [11], "c is routed and unguarded; helper is no view")
        #expect(try Self.engine().findings(handlers: views).isEmpty, "without URL patterns c is no view")
    }

    @Test func hookInAnotherFileGuardsTheApp() throws {
        let routes = try RouteModelTests.handlers(
            """
            from app import app

            @app.route("/a")
            @login_required
            def a():
                return A.query.all()

            @app.route("/b")
            @login_required
            def b():
                return B.query.all()

            @app.route("/c")
            def c():
                return C.query.all()
            """, file: "routes.py")
        #expect(try Self.engine().findings(handlers: routes).map { $0.location.startLine } == [13])
        let hooks = try RouteModelTests.handlers(
            """
            from app import app

            @app.before_request
            def guard():
                if "user" not in session:
                    abort(401)
            """, file: "hooks.py")
        #expect(try Self.engine().findings(handlers: routes + hooks).isEmpty)
    }
}
