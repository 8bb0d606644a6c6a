import Testing

@testable import SCA

@Suite struct LockfilePythonTests {
    /// Reads includes from the fixture directory, as the detector would from a scan root.
    let requirements = RequirementsParser(root: fixtureDirectory() + "/requirements")

    @Test func requirementsPinsIncludesAndConstraints() throws {
        let result = try requirements.parse(try fixture("requirements/requirements.txt"), file: "requirements.txt")
        #expect(
            result.dependencies.map { "\($0.file):\($0.line) \($0.name) \($0.version ?? "nil")" } == [
                "base.txt:2 six 1.15.0",
                "common/extra.txt:1 idna 2.10",
                "requirements.txt:8 Django 3.2.12",
                "requirements.txt:9 requests 2.25.1",
                "requirements.txt:10 PyYAML 5.3.1",
                "requirements.txt:11 urllib3 1.26.4",
                "requirements.txt:14 celery 5.0.5",
                "requirements.txt:15 jinja2 2.11.2",
                "requirements.txt:16 numpy nil",
                "requirements.txt:20 pillow 8.1.0",
            ])
        let byName = Dictionary(uniqueKeysWithValues: result.dependencies.map { ($0.name, $0) })
        #expect(byName["requests"]?.notes["extras"] == "security,socks")
        #expect(byName["requests"]?.notes["markers"] == "python_version >= \"3.6\"")
        #expect(byName["urllib3"]?.notes["hashes"]?.split(separator: ",").count == 2)
        #expect(byName["celery"]?.notes["constraint"] == "constraints.txt:1")
        #expect(byName["numpy"]?.notes["specifier"] == "==1.21.*")
        // flask appears only in the constraints file: constraints alone install nothing.
        #expect(byName["flask"] == nil)
    }

    @Test func requirementsNoticesName() throws {
        let result = try requirements.parse(try fixture("requirements/requirements.txt"), file: "requirements.txt")
        let notices = result.problems.map { "\($0.file):\($0.line) \($0.level.rawValue)" }
        #expect(
            notices == [
                "common/extra.txt:2 warning",
                "requirements.txt:16 info",
                "requirements.txt:17 info",
                "requirements.txt:18 info",
                "requirements.txt:19 info",
            ])
        #expect(
            result.problems[0].message
                == "include cycle: requirements.txt -> base.txt -> common/extra.txt -> requirements.txt")
        #expect(result.problems[1].message == "not pinned: numpy (==1.21.*)")
        #expect(result.problems[3].message.hasPrefix("mylib comes from a direct reference"))
    }

    @Test(
        arguments: [
            ("flask==2.0.1", "flask", "2.0.1", ""),
            ("flask === 2.0.1", "flask", "2.0.1", ""),
            ("Flask_Login==0.5.0 # comment", "Flask_Login", "0.5.0", ""),
            ("zope.interface==5.4.0;python_version<'3.10'", "zope.interface", "5.4.0", "python_version<'3.10'"),
            ("name[extra1, extra2] == 1.0 ; sys_platform == 'linux'", "name", "1.0", "sys_platform == 'linux'"),
            ("pkg (==3.1)", "pkg", "3.1", ""),
            ("pkg>=1.0,==1.4", "pkg", "1.4", ""),
            ("pkg>=1.0", "pkg", nil, ""),
            ("pkg!=1.0", "pkg", nil, ""),
            ("pkg~=1.4.2", "pkg", nil, ""),
            ("pkg==1.*", "pkg", nil, ""),
        ] as [(String, String, String?, String)])
    func requirementLines(line: String, name: String, version: String?, markers: String) throws {
        let result = try RequirementsParser(loader: { _ in [] }).parse(Array(line.utf8), file: "r.txt")
        #expect(result.dependencies.count == 1)
        #expect(result.dependencies.first?.name == name)
        #expect(result.dependencies.first?.version == version)
        #expect((result.dependencies.first?.notes["markers"] ?? "") == markers)
        #expect(result.problems.contains { $0.message.hasPrefix("not pinned") } == (version == nil))
    }

    @Test func requirementsEdgeCases() throws {
        let text =
            "\u{FEFF}# header\r\nflask==2.0.1 \\\r\n    --hash=sha256:aaa\r\n\r\n  # indented comment\r\nclick==8.0.0\rsix==1.16.0\r\nbad line here\r\n-x what\r\nflask==2.0.1\r\n"
        let result = try RequirementsParser(loader: { _ in [] }).parse(Array(text.utf8), file: "req.txt")
        #expect(
            rows(result) == [
                Row("flask", "2.0.1", 2, true, []),
                Row("click", "8.0.0", 6, true, []),
                Row("six", "1.16.0", 7, true, []),
            ])
        #expect(result.dependencies[0].notes["hashes"] == "sha256:aaa")
        #expect(result.problems.map(\.line) == [8, 9])
        #expect(result.problems.map(\.level) == [.warning, .warning])
    }

    @Test func requirementsEmptyAndCommentOnly() throws {
        let parser = RequirementsParser(loader: { _ in [] })
        #expect(try parser.parse([], file: "r.txt").dependencies.isEmpty)
        let comments = try parser.parse(Array("# nothing\n\n   \n".utf8), file: "r.txt")
        #expect(comments.dependencies.isEmpty && comments.problems.isEmpty)
    }

    @Test func requirementsInFilesKeepOnlyPins() throws {
        let result = try requirements.parse(
            try fixture("requirements/requirements-dev.in"), file: "requirements-dev.in")
        #expect(rows(result) == [Row("black", "21.5b1", 2, true, [])])
        #expect(result.problems.isEmpty)
    }

    /// pip reads the include (or fails): a result missing it is not clean (hostile inputs round 3, finding 7).
    @Test func requirementsMissingIncludeIsAnError() throws {
        let result = try RequirementsParser(loader: { path in throw SCATestError.missing(path) })
            .parse(Array("-r missing.txt\nsix==1.0\n".utf8), file: "sub/requirements.txt")
        #expect(rows(result) == [Row("six", "1.0", 2, true, [])])
        #expect(
            result.problems.map(\.description) == [
                "sub/requirements.txt:1: error: cannot read included file sub/missing.txt"
            ])
    }

    @Test func pipfileLock() throws {
        let result = try PipfileLockParser().parse(try fixture("pipenv/Pipfile.lock"), file: "Pipfile.lock")
        #expect(
            rows(result) == [
                Row("certifi", "2020.12.5", 19, true, []),
                Row("flask", "1.1.2", 25, true, []),
                Row("importlib-metadata", "4.0.1", 32, true, []),
                Row("pytest", "6.2.3", 45, true, []),
            ])
        #expect(result.dependencies[2].notes["markers"] == "python_version < '3.8'")
        #expect(result.dependencies[3].notes["group"] == "develop")
        #expect(result.problems.map(\.line) == [36])
    }

    @Test func poetryLock() throws {
        let result = try PoetryLockParser().parse(try fixture("poetry/poetry.lock"), file: "poetry.lock")
        #expect(
            rows(result) == [
                Row("certifi", "2021.10.8", 4, false, ["requests", "certifi"]),
                Row("charset-normalizer", "2.0.12", 16, false, ["requests", "charset-normalizer"]),
                Row("pytest", "6.2.5", 27, true, ["pytest"]),
                Row("requests", "2.26.0", 38, true, ["requests"]),
                Row("toml", "0.10.2", 54, false, ["pytest", "toml"]),
                Row("urllib3", "1.26.7", 62, false, ["requests", "urllib3"]),
            ])
        #expect(result.dependencies[2].notes["category"] == "dev")
        #expect(result.dependencies[5].notes["source"] == "legacy")
    }

    @Test func uvLock() throws {
        let result = try UVLockParser().parse(try fixture("uv/uv.lock"), file: "uv.lock")
        #expect(
            rows(result) == [
                Row("anyio", "4.4.0", 9, false, ["fastapi", "starlette", "anyio"]),
                Row("exceptiongroup", "1.2.2", 23, false, ["fastapi", "starlette", "anyio", "exceptiongroup"]),
                Row("fastapi", "0.111.0", 28, true, ["fastapi"]),
                Row("idna", "3.7", 37, true, ["idna"]),
                Row("pydantic", "2.7.4", 62, false, ["fastapi", "pydantic"]),
                Row("pytest", "8.2.2", 67, true, ["pytest"]),
                Row("sniffio", "1.3.1", 72, false, ["fastapi", "starlette", "anyio", "sniffio"]),
                Row("starlette", "0.37.2", 77, false, ["fastapi", "starlette"]),
            ])
        #expect(result.dependencies[0].notes["registry"] == "https://pypi.org/simple")
    }

    @Test func pdmLock() throws {
        let result = try PDMLockParser().parse(try fixture("pdm/pdm.lock"), file: "pdm.lock")
        #expect(
            rows(result) == [
                Row("click", "8.1.3", 11, false, ["flask", "click"]),
                Row("colorama", "0.4.6", 24, false, ["pytest", "colorama"]),
                Row("flask", "2.2.2", 32, true, ["flask"]),
                Row("itsdangerous", "2.1.2", 45, false, ["flask", "itsdangerous"]),
                Row("jinja2", "3.1.2", 52, false, ["flask", "jinja2"]),
                Row("markupsafe", "2.1.1", 62, false, ["flask", "jinja2", "markupsafe"]),
                Row("werkzeug", "2.2.2", 69, false, ["flask", "werkzeug"]),
                Row("pytest", "7.2.0", 79, true, ["pytest"]),
            ])
        #expect(result.dependencies[1].notes["groups"] == "default,test")
    }

    @Test(arguments: [
        ("[[package]]\nversion = \"1.0\"\n", "poetry.lock:1: [[package]] without a string 'name'"),
        ("[[package]]\nname = \"a\"\n", "poetry.lock:2: package a has no string 'version'"),
        ("[[package]]\nname = \"a\nversion = \"1\"\n", "poetry.lock:2: unterminated string"),
        ("package = 3\n", "poetry.lock:1: 'package' must be an array of tables ([[package]])"),
        ("[metadata]\n[metadata]\n", "poetry.lock:2: table [metadata] defined twice"),
    ])
    func poetryMalformed(text: String, message: String) {
        #expect(thrownMessage { _ = try PoetryLockParser().parse(Array(text.utf8), file: "poetry.lock") } == message)
    }
}

enum SCATestError: Error { case missing(String) }

@Suite struct LockfilePipCompileTests {
    @Test func viaAnnotationsGiveTheGraph() throws {
        let path = "requirements/requirements-compiled.txt"
        let result = try RequirementsParser(loader: { _ in [] }).parse(try fixture(path), file: "requirements.txt")
        #expect(
            rows(result) == [
                Row("anyio", "3.6.2", 7, false, ["fastapi", "starlette", "anyio"]),
                Row("fastapi", "0.95.0", 11, true, ["fastapi"]),
                Row("idna", "3.4", 14, false, ["requests", "idna"]),
                Row("pydantic", "1.10.7", 19, false, ["fastapi", "pydantic"]),
                Row("requests", "2.28.2", 22, true, ["requests"]),
                Row("sniffio", "1.3.0", 25, false, ["fastapi", "starlette", "anyio", "sniffio"]),
                Row("starlette", "0.26.1", 28, false, ["fastapi", "starlette"]),
            ])
        #expect(result.dependencies[2].notes["via"] == "anyio, requests")
        #expect(result.dependencies[0].notes["hashes"]?.split(separator: ",").count == 2)
    }

    @Test func oldStyleInlineVia() throws {
        let text = "click==8.1.3              # via flask\nflask==2.2.2              # via -r requirements.in\n"
        let result = try RequirementsParser(loader: { _ in [] }).parse(Array(text.utf8), file: "r.txt")
        #expect(
            rows(result) == [
                Row("click", "8.1.3", 1, false, ["flask", "click"]), Row("flask", "2.2.2", 2, true, ["flask"]),
            ])
    }
}
