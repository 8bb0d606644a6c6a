import PythonSyntax
import Testing

@testable import SAST

/// The route model: the handlers each framework's code declares, their guards and body facts.
@Suite struct RouteModelTests {
    /// The handlers (and hooks, URL targets) of `source`; `definitions`: with the file's
    /// functions and classes too, for the project's guards.
    static func handlers(_ source: String, file: String = "app.py", definitions: Bool = false) throws -> [RouteHandler] {
        let module = try PythonParser.parseModule(source: source, fileName: file)
        let all = RouteExtractor(file: file, aliases: ImportAliases(root: module.root)).handlers(in: module.root)
        return definitions ? all : all.filter { $0.kind != .definition }
    }

    static func named(_ handlers: [RouteHandler], _ name: String) -> RouteHandler? {
        handlers.first { $0.name == name }
    }

    @Test func flaskAndBlueprintRoutes() throws {
        let found = try Self.handlers(
            """
            from flask import Blueprint, Flask
            from flask_login import login_required as lr
            app = Flask(__name__)
            bp = Blueprint("b", __name__)

            @app.route("/notes/<int:note_id>", methods=["POST"])
            @lr
            def note(note_id):
                return Note.query.get(note_id)

            @bp.get("/items")
            def items():
                return []

            @bp.before_request
            def check():
                pass

            def create_app():
                @app.route("/inner")
                def inner():
                    return "x"
            """)
        #expect(found.map(\.name).sorted() == ["check", "inner", "items", "note"])
        let note = try #require(Self.named(found, "note"))
        #expect(note.path == "/notes/<int:note_id>")
        #expect(note.line == 6, "at the first decorator")
        #expect(note.guards.contains("flask_login.login_required"), "decorators resolved through imports")
        #expect(note.group == "app.py#app")
        #expect(note.facts.objectLoads == [9])
        #expect(Self.named(found, "items")?.group == "app.py#bp")
        #expect(Self.named(found, "check")?.kind == .hook)
    }

    /// Issue 55: a class-based controller's routed methods (fastapi-utils `@cbv`, a project's own
    /// `@controller`) are handlers with the class's bases as guards; a router's `""` path is a
    /// route; guards that name an administrator role mark the handler as administrators only.
    @Test func controllersAndAdministratorOnlyHandlers() throws {
        let found = try Self.handlers(
            """
            from fastapi import APIRouter, Depends
            from app.base import AdminBase, UserBase, controller
            router = APIRouter(prefix="/email")
            admin_router = APIRouter(prefix="/admin", dependencies=[Depends(get_admin_user)])

            @controller(router)
            class MailController(AdminBase):
                @router.post("")
                def send_sample(self, data: MailSample):
                    try:
                        send(data)
                    except Exception as e:
                        return {"error": str(e)}

            @controller(router)
            class ProfileController(UserBase):
                @router.get("/me")
                def me(self):
                    return self.user

            @router.put("/config", dependencies=[Depends(require_role(["admin"]))])
            def save_config(body: str):
                return body

            @admin_router.get("/stats")
            def stats():
                return {}

            @router.get("/public")
            def public():
                return {}
            """)
        #expect(found.map(\.name).sorted() == ["MailController.send_sample", "ProfileController.me", "public", "save_config", "stats"])
        let send = try #require(Self.named(found, "MailController.send_sample"))
        #expect(send.guards.contains("app.base.AdminBase"))
        #expect(send.line == 8)
        #expect(send.endLine == 13, "\(send.endLine)")
        #expect(found.filter(\.administratorsOnly).map(\.name).sorted() == ["MailController.send_sample", "save_config", "stats"])
    }

    /// What makes a guard an administrators' one: a check named for them, or a role check whose
    /// roles are all theirs; not one that also admits others, not a mere mention.
    @Test(arguments: [
        ("@admin_required", true), ("@staff_member_required", true), ("@user_passes_test(lambda u: u.is_superuser)", true),
        ("@requires_roles(['admin'])", true), ("@permission_classes([IsAdminUser])", true),
        ("@permission_classes([IsAdminOrReadOnly])", false), ("@requires_roles(['admin', 'editor'])", false),
        ("@extend_schema(tags=['Admin'])", false), ("@admin.display(description='x')", false), ("@login_required", false),
    ])
    func administratorGuards(decorator: String, administrators: Bool) throws {
        let found = try Self.handlers(
            "from flask import Flask\napp = Flask(__name__)\n\n@app.route('/x')\n\(decorator)\ndef x():\n    return ''\n")
        #expect(found.first?.administratorsOnly == administrators)
    }

    @Test func fastAPIAndAiohttpRoutes() throws {
        let found = try Self.handlers(
            """
            from fastapi import APIRouter, Depends
            from aiohttp import web
            router = APIRouter()
            routes = web.RouteTableDef()

            @router.delete("/items/{item_id}")
            async def remove(item_id: int, user=Depends(get_current_user)):
                db.execute("DELETE FROM items WHERE id = ?", (item_id,))

            @routes.get("/health")
            async def health(request):
                return web.Response(text="ok")

            @cache.get("key")
            def cached():
                return 1
            """)
        #expect(found.map(\.name).sorted() == ["health", "remove"], "a verb decorator without a path is no route")
        let remove = try #require(Self.named(found, "remove"))
        let guarded = try Self.handlers(
            """
            from fastapi import APIRouter, Depends
            admin = APIRouter(prefix="/admin", dependencies=[Depends(require_admin)])

            @admin.post("/reset")
            def reset():
                pass

            @app.get("/keys", dependencies=[Depends(verify_key)])
            def keys():
                pass
            """)
        #expect(guarded.first?.guards.contains("require_admin") == true, "a router's dependencies guard its routes")
        #expect(guarded.first?.guards.contains("admin.post") == false, "the route decorator guards nothing")
        #expect(guarded.last?.guards.contains("verify_key") == true, "its dependencies do")
        #expect(remove.guards.contains("get_current_user"))
        #expect(remove.facts.objectLoads == [8], "the dependency is not a client value; the path parameter is")
    }

    @Test func classViewsTornadoAndGraphene() throws {
        let found = try Self.handlers(
            """
            import graphene
            import tornado.web
            from flask_restful import Resource
            from rest_framework import viewsets
            from rest_framework.permissions import IsAuthenticated

            class Note(Resource):
                method_decorators = [jwt_required()]
                def get(self, note_id):
                    return {}
                def helper(self):
                    pass

            class Orders(viewsets.ModelViewSet):
                permission_classes = [IsAuthenticated]
                def retrieve(self, request, pk=None):
                    return Order.objects.get(pk=pk)

            class Search(tornado.web.RequestHandler):
                def get(self):
                    q = self.get_argument("q")

            class DeletePaste(graphene.Mutation):
                def mutate(self, info, id):
                    return Paste.query.filter_by(id=id).delete()

            class Query(graphene.ObjectType):
                def resolve_pastes(self, info):
                    return []
            """)
        #expect(
            found.map(\.name).sorted() == [
                "DeletePaste.mutate", "Note.get", "Orders.retrieve", "Query.resolve_pastes", "Search.get",
            ])
        #expect(Self.named(found, "Note.get")?.guards.contains("jwt_required") == true)
        #expect(Self.named(found, "Orders.retrieve")?.guards.contains("rest_framework.permissions.IsAuthenticated") == true)
        #expect(Self.named(found, "Orders.retrieve")?.facts.objectLoads == [17])
        #expect(Self.named(found, "DeletePaste.mutate")?.facts.objectLoads == [25])
        #expect(Set(found.map(\.group)) == ["app.py#classes"])
    }

    @Test func djangoViewsNeedAURLOrADecorator() throws {
        let found = try Self.handlers(
            """
            from django.contrib.auth.decorators import login_required
            from django.urls import path
            from . import views

            @login_required
            def dashboard(request):
                return render(request, "d.html")

            def profile(request, user_id):
                return User.objects.get(id=user_id)

            urlpatterns = [path("p/<int:user_id>/", views.profile), path("o/", OrderView.as_view())]
            """, file: "views.py")
        #expect(Self.named(found, "dashboard")?.kind == .handler)
        #expect(Self.named(found, "profile")?.kind == .unroutedView)
        #expect(found.filter { $0.kind == .urlTarget }.map(\.name) == ["profile", "OrderView"])
        #expect(Self.named(found, "profile")?.facts.objectLoads == [10])
        #expect(try Self.handlers("def view(request):\n    return 1\n").isEmpty, "not without Django")
    }

    @Test func bodyFacts() throws {
        let found = try Self.handlers(
            """
            from flask import Flask, abort, request, session
            from flask_login import current_user
            app = Flask(__name__)

            @app.route("/a/<int:note_id>")
            def a(note_id):
                if not current_user.is_authenticated:
                    abort(401)
                mine = Note.query.get(current_user.id)
                sess = Session.query.filter_by(session_id=request.cookies["sid"]).first()
                nid = request.args["id"]
                return Note.query.filter(Note.id == nid).first()
            """)
        let a = try #require(Self.named(found, "a"))
        #expect(a.facts.denies)
        #expect(a.facts.conditions == ["not current_user.is_authenticated"])
        #expect(a.facts.objectLoads == [12], "the user's own id and a session lookup are no client key")
        #expect(a.facts.comparisons.contains("Note.id == nid"))
    }

    @Test func loaderChecksKeys() throws {
        let base = """
            id: python.r
            mode: route
            message: m
            severity: high
            cwe: [639]
            authentication:
              guards: login
            """
        #expect(throws: (any Error).self) { try RuleLoader.parseAny(base + "\ncheck: unowned-object\n", file: "r.yaml") }
        #expect(throws: (any Error).self) { try RuleLoader.parseAny(base + "\ncheck: nothing\n", file: "r.yaml") }
        #expect(throws: (any Error).self) {
            try RuleLoader.parseAny(base + "\ncheck: missing-authentication\npublc: x\n", file: "r.yaml")
        }
        guard case .route(let rule) = try RuleLoader.parseAny(base + "\ncheck: missing-authentication\n", file: "r.yaml") else {
            Issue.record("not a route rule")
            return
        }
        #expect(rule.check == .missingAuthentication)
        #expect(rule.minSiblings == 2)
    }
}
