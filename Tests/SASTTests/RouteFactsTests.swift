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

    @Test("a key read off a copy of the source names nothing; no route, no route facts")
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
        #expect(facts.map(\.route) == [nil])
    }

    @Test("Express: the property read off req.query names the value")
    func expressQueryProperty() throws {
        let source = """
            const { exec } = require('child_process');
            const express = require('express');
            const app = express();
            app.get('/run', (req, res) => {
              exec('ls ' + req.query.dir, (err, out) => res.send(out));
            });
            """
        let facts = try Self.facts("app.js", source, rule: "javascript.taint-command-injection")
        #expect(facts.map(\.sourceIn) == [.query])
        #expect(facts.map(\.sourceParameter) == ["dir"])
    }
}
