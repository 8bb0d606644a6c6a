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

    /// Issue 75: a Flask factory's `@app.before_request` login check runs before the handlers of
    /// every blueprint the application registers: those of its package are guarded, another
    /// application's beside it are not.
    @Test func applicationHookGuardsItsPackagesBlueprints() throws {
        let blueprint = """
            from flask import Blueprint

            def make_blueprint():
                view = Blueprint("account", __name__)

                @view.route("/a")
                @login_required
                def a():
                    return A.query.all()

                @view.route("/b")
                @login_required
                def b():
                    return B.query.all()

                @view.route("/reset", methods=["POST"])
                def reset():
                    return C.query.all()

                return view
            """
        let inside = try RouteModelTests.handlers(blueprint, file: "journalist_app/account.py")
        let outside = try RouteModelTests.handlers(blueprint, file: "source_app/account.py")
        let factory = try RouteModelTests.handlers(
            """
            from flask import Flask
            from journalist_app import account

            def create_app():
                app = Flask(__name__)

                @app.before_request
                def setup_g():
                    if not session.get("uid"):
                        return redirect(url_for("main.login"))

                app.register_blueprint(account.make_blueprint(), url_prefix="/account")
                return app
            """, file: "journalist_app/__init__.py")
        let engine = try Self.engine()
        #expect(try engine.findings(handlers: inside).map { $0.location.startLine } == [16])
        #expect(try engine.findings(handlers: inside + factory).isEmpty)
        #expect(try engine.findings(handlers: inside + outside + factory).map(\.location.file) == ["source_app/account.py"])
    }

    static let unownedRule = """
        id: python.t-unowned
        mode: route
        check: unowned-object
        message: m
        severity: medium
        cwe: [639]
        authentication:
          guards: (?i)login_required
        ownership: (?i)(current_user|request\\.user|has_perm)

        """

    /// Four handlers under `login_required` and two more: `c` under the project's own decorator
    /// that refuses with 403 unless the session's role fits (named like no guard the rule knows,
    /// for a role that is not an administrator's), `d` under nothing.
    static let guardedRoutes = """
        from flask import Blueprint
        from flask_login import login_required
        from app.security import role_needed

        bp = Blueprint("x", __name__)

        @bp.route("/a")
        @login_required
        def a():
            return A.query.all()

        @bp.route("/b")
        @login_required
        def b():
            return B.query.all()

        @bp.route("/e")
        @login_required
        def e():
            return E.query.all()

        @bp.route("/f")
        @login_required
        def f():
            return F.query.all()

        @bp.route("/c")
        @role_needed("editor")
        def c():
            return C.query.all()

        @bp.route("/d")
        def d():
            return D.query.all()
        """

    /// Issue 55: guards are recognised by what they do, across the project: a decorator factory
    /// whose wrapper aborts with 403 guards whatever its name (on fc07084 only names counted).
    @Test func aProjectDecoratorGuardsByWhatItDoes() throws {
        let routes = try RouteModelTests.handlers(Self.guardedRoutes, file: "app/views.py", definitions: true)
        let security = try RouteModelTests.handlers(
            """
            from functools import wraps
            from flask import abort, session

            def role_needed(role):
                def decorator(view):
                    @wraps(view)
                    def wrapper(*args, **kwargs):
                        if session.get("role") != role:
                            abort(403)
                        return view(*args, **kwargs)
                    return wrapper
                return decorator
            """, file: "app/security.py", definitions: true)
        let lines = { (handlers: [RouteHandler]) in try Self.engine().findings(handlers: handlers).map { $0.location.startLine ?? 0 } }
        #expect(try lines(routes) == [27, 32], "without its definition, role_needed is a name like any other")
        #expect(try lines(routes + security) == [32])
        // A guard the project declares (`models.guards`) counts the same.
        guard case .route(let rule) = try RuleLoader.parseAny(Self.rule, file: "t.yaml") else { throw CancellationError() }
        let declared = RouteEngine(rules: [rule], declaredGuards: ["app.security.role_needed"])
        #expect(declared.findings(handlers: routes).map { $0.location.startLine ?? 0 } == [32])
    }

    /// The same model decides object access: a project decorator that compares the loaded object
    /// with the current user checks ownership for the handlers it guards; one that only
    /// identifies the caller (a local `current_user`, a truthiness test) does not.
    @Test func ownershipCheckedByAProjectGuard() throws {
        let routes = try RouteModelTests.handlers(
            """
            from flask_login import login_required, current_user
            from app.guards import owns_note, token_required

            @app.route("/notes/<int:id>")
            @login_required
            def mine(id):
                note = Note.query.get(id)
                if note.owner_id != current_user.id:
                    abort(404)
                return note.text

            @app.route("/notes/<int:id>/raw")
            @login_required
            @owns_note
            def raw(id):
                return Note.query.get(id).text

            @app.route("/notes/<int:id>/any")
            @login_required
            @token_required
            def any_note(id):
                return Note.query.get(id).text
            """, file: "app/views.py", definitions: true)
        let guards = try RouteModelTests.handlers(
            """
            def owns_note(view):
                def wrapper(*args, **kwargs):
                    if Note.query.get(kwargs["id"]).owner_id != flask_login.current_user.id:
                        abort(403)
                    return view(*args, **kwargs)
                return wrapper

            def token_required(view):
                def wrapper(*args, **kwargs):
                    current_user = User.query.get(decode(request.headers["Authorization"]))
                    if not current_user:
                        abort(401)
                    return view(current_user, *args, **kwargs)
                return wrapper
            """, file: "app/guards.py", definitions: true)
        guard case .route(let rule) = try RuleLoader.parseAny(Self.unownedRule, file: "u.yaml") else { throw CancellationError() }
        let found = RouteEngine(rules: [rule]).findings(handlers: routes + guards).map(\.enclosingScope)
        #expect(found == ["any_note"], "\(found)")
    }
}
