import Findings
import Testing

@testable import SAST

/// Issue 80: a taint finding says where in the request its source reads (`sourceIn`), the
/// value's name (`sourceParameter`) and, for a handler whose path the code names, the route and
/// its methods: what `sentinel scan --prove` sends its one check to.
@Suite struct RouteFactsTests {
    static func facts(_ file: String, _ source: String, rule: String) throws -> [CodeFacts] {
        try EvidenceTests.scan(file, source, rule: rule).map(\.facts.code)
    }

    @Test("Flask: the query key, the form key and a path placeholder, with the route and its methods")
    func flaskParts() throws {
        let source = """
            import sqlite3
            import subprocess
            from flask import Flask, request

            app = Flask(__name__)

            @app.route("/search")
            def search():
                term = request.args.get("q", "")
                return str(sqlite3.connect("a.db").execute("SELECT * FROM t WHERE n = '" + term + "'").fetchall())

            @app.route("/ping", methods=["POST", "PUT"])
            def ping():
                return subprocess.check_output("ping -c 1 " + request.form["host"], shell=True)

            @app.get("/users/<int:uid>/notes/<path:name>")
            def note(uid, name):
                return subprocess.check_output("cat " + name, shell=True)
            """
        let sql = try Self.facts("app.py", source, rule: "python.taint-sql-injection")
        #expect(sql.map(\.sourceIn) == [.query])
        #expect(sql.map(\.sourceParameter) == ["q"])
        #expect(sql.map(\.route) == ["/search"])
        #expect(sql.map(\.routeMethods) == [["GET"]])
        let command = try Self.facts("app.py", source, rule: "python.taint-command-injection")
        #expect(command.map(\.sourceIn) == [.form, .path])
        #expect(command.map(\.sourceParameter) == ["host", "name"])
        #expect(command.map(\.route) == ["/ping", "/users/<int:uid>/notes/<path:name>"])
        #expect(command.map(\.routeMethods) == [["POST", "PUT"], ["GET"]])
    }

    @Test("FastAPI: a handler's parameter the path does not name is a query value")
    func fastAPIQueryParameter() throws {
        let source = """
            import subprocess
            from fastapi import FastAPI

            app = FastAPI()

            @app.get("/run/{job}")
            def run(job: str, arg: str):
                return subprocess.check_output("run " + job + " " + arg, shell=True)
            """
        let facts = try Self.facts("api.py", source, rule: "python.taint-command-injection")
        #expect(facts.count == 1)
        // One finding per sink line: its flow is from the first parameter the path names.
        #expect(facts.first?.route == "/run/{job}")
        let read = facts.first.map { "\($0.sourceIn?.rawValue ?? "-") \($0.sourceParameter ?? "-")" }
        #expect(read == "path job" || read == "query arg")
    }

    @Test("a key read off the source's variable names it; one read off a helper's return does not; no route, no route facts")
    func unnamedAndUnrouted() throws {
        let source = """
            import subprocess
            from flask import request

            def helper():
                args = request.args
                name = args.get("n")
                return subprocess.check_output("echo " + name, shell=True)
            """
        let facts = try Self.facts("lib.py", source, rule: "python.taint-command-injection")
        #expect(facts.map(\.sourceIn) == [.query])
        #expect(facts.map(\.sourceParameter) == ["n"])
        #expect(facts.map(\.route) == [nil])
        let helper = """
            import subprocess
            from flask import request

            def arguments():
                return request.args

            def run():
                name = arguments().get("n")
                return subprocess.check_output("echo " + name, shell=True)
            """
        let returned = try Self.facts("lib.py", helper, rule: "python.taint-command-injection")
        #expect(returned.map(\.sourceIn) == [.query])
        #expect(returned.map(\.sourceParameter) == [nil])
    }

    @Test("Express: the property read off req.query names the value; the route is the router's")
    func expressQueryProperty() throws {
        let source = """
            const { exec } = require('child_process');
            const express = require('express');
            const app = express();
            const router = express.Router();
            app.get('/run', (req, res) => {
              exec('ls ' + req.query.dir, (err, out) => res.send(out));
            });
            function show(req, res) {
              exec('cat ' + req.params.name, (err, out) => res.send(out));
            }
            router.post('/files/:name', show);
            const other = makeThing();
            other.get('/not/a/route', (req, res) => {
              exec('ls ' + req.query.x, (err, out) => res.send(out));
            });
            """
        let facts = try Self.facts("app.js", source, rule: "javascript.taint-command-injection")
        #expect(facts.map(\.sourceIn) == [.query, .path, .query])
        #expect(facts.map(\.sourceParameter) == ["dir", "name", "x"])
        // A receiver nothing shows to be a router (by its constructor's import) has no route.
        #expect(facts.map(\.route) == ["/run", "/files/:name", nil])
        #expect(facts.map(\.routeMethods) == [["GET"], ["POST"], nil])
    }

    @Test(
        "Next.js routes by file name: a Pages Router API route's default export, an App Router route's exported methods",
        arguments: [
            ("pages/api/users/[id].js", "/api/users/:id", false), ("src/pages/api/index.ts", "/api", false),
            ("web/pages/api/files/[...path].ts", "/api/files/:path", false), ("app/api/search/route.ts", "/api/search", true),
            ("src/app/(shop)/api/items/[[...slug]]/route.js", "/api/items/:slug", true),
            ("app/@modal/api/x/route.tsx", "/api/x", true), ("app/api/app/route.ts", "/api/app", true),
        ])
    func nextRoutePaths(file: String, path: String, appRouter: Bool) {
        let route = ScriptRouteExtractor.nextRoute(of: file)
        #expect(route?.path == path && route?.appRouter == appRouter, "\(String(describing: route))")
    }

    @Test("files that are no Next.js route: pages outside api, a private folder, a route's neighbours")
    func notNextRoutes() {
        for file in ["pages/index.js", "pages/users/[id].tsx", "app/api/_lib/route.ts", "app/api/search/helpers.ts", "api/x.js"] {
            #expect(ScriptRouteExtractor.nextRoute(of: file) == nil, "\(file)")
        }
    }

    @Test("Next.js: the route and methods of the handler the source is read in")
    func nextHandlers() throws {
        let pages = """
            import { exec } from "child_process";
            export default function handler(req, res) {
              exec("ls " + req.query.dir, (error, out) => res.status(200).send(out));
            }
            """
        let api = try Self.facts("pages/api/users/[id].js", pages, rule: "javascript.taint-command-injection")
        #expect(api.map(\.route) == ["/api/users/:id"])
        #expect(api.map(\.routeMethods) == [nil])
        #expect(api.map(\.sourceIn) == [.query] && api.map(\.sourceParameter) == ["dir"])
        let app = """
            import { NextResponse } from "next/server";
            import { execSync } from "child_process";
            export async function GET(request) {
              const term = request.nextUrl.searchParams.get("q");
              return new NextResponse(execSync("grep " + term + " /etc/hosts"));
            }
            export const POST = async (request) => {
              const body = await request.json();
              return new NextResponse(execSync("echo " + body.name));
            };
            """
        let handlers = try Self.facts("app/api/search/route.ts", app, rule: "javascript.taint-command-injection")
        #expect(handlers.map(\.route) == ["/api/search", "/api/search"])
        #expect(handlers.map(\.routeMethods) == [["GET"], ["POST"]])
        #expect(handlers.map(\.sourceIn) == [.query, .json])
        // The key read off the parsed body's variable names it.
        #expect(handlers.map(\.sourceParameter) == ["q", "name"])
    }

    @Test("Django: a view's path from the URL configurations, below the include that leads to them")
    func djangoURLConfigurations() throws {
        let engine = SASTEngine(rules: try EvidenceTests.shipped.get())
        let root = engine.scan(
            file: "site/urls.py",
            source: """
                from django.urls import include, path
                urlpatterns = [path("lab/", include("lab.urls"))]
                """)
        let lab = engine.scan(
            file: "lab/urls.py",
            source: """
                from django.urls import path, re_path
                from . import views
                urlpatterns = [
                    path("ping/", views.ping),
                    re_path(r"^items/(?P<item>[^/]+)/$", views.Items.as_view()),
                ]
                """)
        let views = engine.scan(
            file: "lab/views.py",
            source: """
                import subprocess
                from django.http import HttpResponse
                from django.views import View

                def ping(request):
                    return HttpResponse(subprocess.check_output("ping " + request.GET["host"], shell=True))

                class Items(View):
                    def post(self, request, item):
                        return HttpResponse(subprocess.check_output("cat " + request.POST.get("name"), shell=True))
                """)
        let handlers = root.routes + lab.routes + views.routes
        let findings = views.findings.filter { $0.ruleId == "python.taint-command-injection" }
        #expect(findings.count == 2)
        #expect(findings.allSatisfy { $0.facts.code.route == nil })
        let routed = RouteFacts.attach(findings, projectHandlers: handlers).map(\.facts.code)
        #expect(routed.map(\.route) == ["/lab/ping/", "/lab/items/<item>/"])
        #expect(routed.map(\.routeMethods) == [nil, ["POST"]])
        #expect(routed.map(\.sourceIn) == [.query, .form])
        #expect(routed.map(\.sourceParameter) == ["host", "name"])
    }

    @Test("Tornado: a handler class's methods take the path of the URL spec that names the class")
    func tornadoURLSpecs() throws {
        let engine = SASTEngine(rules: try EvidenceTests.shipped.get())
        let app = engine.scan(
            file: "app.py",
            source: """
                import subprocess
                import tornado.web

                class RunHandler(tornado.web.RequestHandler):
                    def get(self):
                        self.write(subprocess.check_output("run " + self.get_argument("job"), shell=True))

                def make_app():
                    return tornado.web.Application([(r"/run", RunHandler)])
                """)
        let findings = app.findings.filter { $0.ruleId == "python.taint-command-injection" }
        let routed = RouteFacts.attach(findings, projectHandlers: app.routes).map(\.facts.code)
        #expect(routed.map(\.route) == ["/run"])
        #expect(routed.map(\.routeMethods) == [["GET"]])
        #expect(routed.map(\.sourceIn) == [.queryOrForm])
        #expect(routed.map(\.sourceParameter) == ["job"])
    }

    @Test("Flask: a blueprint's route below the prefix its registration gives, else its constructor's")
    func blueprintPrefixes() throws {
        let engine = SASTEngine(rules: try EvidenceTests.shipped.get())
        let users = engine.scan(
            file: "shop/users.py",
            source: """
                import subprocess
                from flask import Blueprint, request

                users = Blueprint("users", __name__, url_prefix="/people")

                @users.route("/ping")
                def ping():
                    return subprocess.check_output("ping " + request.args["host"], shell=True)
                """)
        let app = engine.scan(
            file: "shop/app.py",
            source: """
                from flask import Flask
                from shop.users import users

                app = Flask(__name__)
                app.register_blueprint(users, url_prefix="/user")
                """)
        let findings = users.findings.filter { $0.ruleId == "python.taint-command-injection" }
        #expect(findings.map(\.facts.code.route) == ["/ping"])
        let registered = RouteFacts.attach(findings, projectHandlers: users.routes + app.routes)
        #expect(registered.map(\.facts.code.route) == ["/user/ping"])
        let constructed = RouteFacts.attach(findings, projectHandlers: users.routes)
        #expect(constructed.map(\.facts.code.route) == ["/people/ping"])
    }

    @Test("Express: a router below the prefix its parent mounts it at, in the file or from another module")
    func expressMountedRouters() throws {
        let engine = SASTEngine(rules: try EvidenceTests.shipped.get())
        let users = engine.scan(
            file: "routes/users.js",
            source: """
                const { exec } = require('child_process');
                const express = require('express');
                const router = express.Router();
                router.get('/ping', (req, res) => {
                  exec('ping ' + req.query.host, (err, out) => res.send(out));
                });
                module.exports = router;
                """)
        let app = engine.scan(
            file: "app.js",
            source: """
                const { exec } = require('child_process');
                const express = require('express');
                const usersRouter = require('./routes/users');
                const app = express();
                const api = express.Router();
                const admin = express.Router();
                admin.get('/run', (req, res) => {
                  exec('ls ' + req.query.dir, (err, out) => res.send(out));
                });
                api.use('/admin', admin);
                app.use('/api/v1', api);
                app.use('/users', usersRouter);
                app.use(express.json());
                """)
        let own = app.findings.filter { $0.ruleId == "javascript.taint-command-injection" }
        #expect(own.map(\.facts.code.route) == ["/api/v1/admin/run"])
        let findings = users.findings.filter { $0.ruleId == "javascript.taint-command-injection" }
        #expect(findings.map(\.facts.code.route) == ["/ping"])
        let mounted = RouteFacts.attach(findings, projectHandlers: users.scriptRoutes + app.scriptRoutes)
        #expect(mounted.map(\.facts.code.route) == ["/users/ping"])
        // A file named with inner dots is the module its importers spell; a package's mount is
        // its own routers', not its submodules'.
        let admin = engine.scan(
            file: "routes/admin.routes.js",
            source: """
                const { exec } = require('child_process');
                const express = require('express');
                const router = express.Router();
                router.post('/run', (req, res) => {
                  exec('ls ' + req.body.dir, (err, out) => res.send(out));
                });
                module.exports = router;
                """)
        let server = engine.scan(
            file: "server.js",
            source: """
                const express = require('express');
                const app = express();
                app.use('/admin', require('./routes/admin.routes'));
                app.use('/everything', require('./routes'));
                """)
        let adminFindings = admin.findings.filter { $0.ruleId == "javascript.taint-command-injection" }
        let projectHandlers = users.scriptRoutes + admin.scriptRoutes + server.scriptRoutes
        #expect(RouteFacts.attach(adminFindings, projectHandlers: projectHandlers).map(\.facts.code.route) == ["/admin/run"])
        #expect(RouteFacts.attach(findings, projectHandlers: projectHandlers).map(\.facts.code.route) == ["/ping"])
    }

    @Test("Hono and Koa: the value a call reads names it; the route is the router's")
    func honoAndKoa() throws {
        let hono = """
            import { Hono } from 'hono';
            import { exec } from 'child_process';
            const app = new Hono();
            app.get('/items/:id', (c) => {
              exec('show ' + c.req.param('id'));
              return c.text('ok');
            });
            """
        let honoFacts = try Self.facts("app.ts", hono, rule: "javascript.taint-command-injection")
        #expect(honoFacts.map(\.sourceIn) == [.path])
        #expect(honoFacts.map(\.sourceParameter) == ["id"])
        #expect(honoFacts.map(\.route) == ["/items/:id"])
        let koa = """
            const Router = require('@koa/router');
            const { exec } = require('child_process');
            const router = new Router();
            router.post('/run', async (ctx) => {
              exec('run ' + ctx.request.body.job);
            });
            """
        let koaFacts = try Self.facts("routes.js", koa, rule: "javascript.taint-command-injection")
        #expect(koaFacts.map(\.sourceIn) == [.formOrJSON])
        #expect(koaFacts.map(\.sourceParameter) == ["job"])
        #expect(koaFacts.map(\.route) == ["/run"])
        #expect(koaFacts.map(\.routeMethods) == [["POST"]])
    }

    @Test("FastAPI: a body model's field is a JSON key; Form() and Header() say where a parameter is")
    func fastAPIDeclaredParts() throws {
        let source = """
            import subprocess
            from fastapi import FastAPI, Form, Header
            from pydantic import BaseModel

            app = FastAPI()

            class Job(BaseModel):
                command: str

            @app.post("/jobs")
            def run(job: Job):
                return subprocess.check_output("run " + job.command, shell=True)

            @app.post("/form")
            def form(task: str = Form(...)):
                return subprocess.check_output("run " + task, shell=True)

            @app.get("/agent")
            def agent(user_agent: str = Header(None)):
                return subprocess.check_output("log " + user_agent, shell=True)
            """
        let facts = try Self.facts("api.py", source, rule: "python.taint-command-injection")
        #expect(facts.map(\.sourceIn) == [.json, .form, .header])
        #expect(facts.map(\.sourceParameter) == ["command", "task", "user_agent"])
        #expect(facts.map(\.route) == ["/jobs", "/form", "/agent"])
    }

    @Test("a router is a framework's by import: a function of the file's own named express makes none")
    func routerByImportOnly() throws {
        let source = """
            const { exec } = require('child_process');
            function express() { return { get() {} }; }
            const app = express();
            app.get('/run', (req, res) => {
              exec('ls ' + req.query.dir, (err, out) => res.send(out));
            });
            """
        let facts = try Self.facts("local.js", source, rule: "javascript.taint-command-injection")
        #expect(facts.map(\.sourceIn) == [.query])
        #expect(facts.map(\.route) == [nil])
    }
}
