import Testing

@testable import SCA

/// Hostile inputs round 3, finding 8: pipenv 2022.10 locks named categories (`[docs]` in the
/// Pipfile) as top-level groups beside `default` and `develop`; pipenv installs them, so every one
/// is read, and their packages are direct.
struct PipfileCategoriesTests {
    @Test("named categories are read as groups, and their packages are direct")
    func namedCategories() throws {
        let lock = """
            {"_meta": {"hash": {"sha256": "x"}, "pipfile-spec": 6},
             "default": {"requests": {"version": "==2.19.0"}},
             "develop": {},
             "docs": {"jinja2": {"version": "==2.10"}, "markupsafe": {"version": "==1.0"}}}
            """
        let pipfile = "[packages]\nrequests = \"*\"\n\n[docs]\njinja2 = \"*\"\n\n[requires]\npython_version = \"3.11\"\n"
        let result = try PipfileLockParser().parse(Array(lock.utf8), file: "Pipfile.lock", manifest: Array(pipfile.utf8))
        let found = result.dependencies.map { "\($0.name) \($0.version ?? "") \($0.notes["group"] ?? "")" }.sorted()
        #expect(found == ["jinja2 2.10 docs", "markupsafe 1.0 docs", "requests 2.19.0 default"])
        let direct = Set(result.dependencies.filter(\.isDirect).map(\.name))
        #expect(direct == ["jinja2", "requests"])
    }
}
