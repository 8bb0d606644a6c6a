import Testing

@testable import SCA

@Suite struct LockfileNpmTests {
    @Test func packageLockV1NestedDependencies() throws {
        let result = try PackageLockParser().parse(try fixture("npm/package-lock-v1.json"), file: "package-lock.json")
        #expect(
            rows(result) == [
                Row("@babel/code-frame", "7.12.13", 7, true, ["@babel/code-frame"]),
                Row("@babel/highlight", "7.13.10", 16, false, ["@babel/code-frame", "@babel/highlight"]),
                Row("express", "4.17.1", 22, true, ["express"]),
                Row("debug", "2.6.9", 31, false, ["express", "debug"]),
                Row("ms", "2.0.0", 39, false, ["express", "debug", "ms"]),
                Row("lodash", "4.17.15", 46, true, ["lodash"]),
                Row("ms", "2.1.2", 51, true, ["ms"]),
                Row("qs", "6.7.0", 56, false, ["express", "qs"]),
            ])
        #expect(result.dependencies[0].notes["dev"] == "true")
        #expect(result.problems.map(\.line) == [61])
    }

    @Test func packageLockV2UsesPackages() throws {
        let result = try PackageLockParser().parse(try fixture("npm/package-lock-v2.json"), file: "package-lock.json")
        #expect(
            rows(result) == [
                Row("axios", "0.21.1", 19, true, ["axios"]),
                Row("follow-redirects", "1.13.3", 27, false, ["axios", "follow-redirects"]),
                Row("minimist", "1.2.5", 41, true, ["minimist"]),
                Row("mkdirp", "0.5.5", 46, true, ["mkdirp"]),
            ])
        #expect(result.dependencies[3].notes["dev"] == "true")
    }

    @Test func packageLockV3NestedPathsWorkspacesAndLinks() throws {
        let result = try PackageLockParser().parse(try fixture("npm/package-lock-v3.json"), file: "package-lock.json")
        #expect(
            rows(result) == [
                Row("@types/node", "18.15.11", 17, true, ["@types/node"]),
                Row("json5", "2.2.1", 26, true, ["json5"]),
                // Installed but required by nothing reachable (extraneous): not direct, no path.
                Row("lru-cache", "6.0.0", 35, false, []),
                Row("semver", "7.3.7", 43, true, ["semver"]),
                Row("lru-cache", "7.14.0", 51, false, ["semver", "lru-cache"]),
                Row("yallist", "4.0.0", 56, false, []),
            ])
    }

    @Test(arguments: [
        ("", "package-lock.json:1: empty JSON document"),
        (
            "{\"lockfileVersion\": 2, \"packages\": {\n\"node_modules/a\": {\"version\": \"1\",}}}",
            "package-lock.json:2: expected a string key in object"
        ),
        ("{\"lockfileVersion\": 2,\n\"packages\": []}", "package-lock.json:2: \"packages\" must be an object"),
        (
            "{\"lockfileVersion\": 1, \"dependencies\": {\n\"a\": {\"resolved\": \"x\"}}}",
            "package-lock.json:2: dependency \"a\" has no \"version\""
        ),
        ("[1, 2]", "package-lock.json:1: expected a JSON object at the top level"),
        (
            "{\"name\": \"x\"}",
            "package-lock.json:1: not a package-lock: no \"lockfileVersion\", \"packages\" or \"dependencies\""
        ),
        ("{\"a\": \"b\n\"}", "package-lock.json:1: control character in JSON string"),
        ("{\"a\": 1} x", "package-lock.json:1: unexpected text after the JSON document"),
    ])
    func packageLockMalformed(text: String, message: String) {
        #expect(
            thrownMessage { _ = try PackageLockParser().parse(Array(text.utf8), file: "package-lock.json") } == message)
    }

    @Test func yarnV1() throws {
        let result = try YarnLockParser().parse(try fixture("yarn/yarn-v1.lock"), file: "yarn.lock")
        #expect(
            rows(result) == [
                Row("@babel/code-frame", "7.12.13", 5, true, ["@babel/code-frame"]),
                Row("@babel/highlight", "7.13.10", 12, false, ["@babel/code-frame", "@babel/highlight"]),
                Row(
                    "ansi-styles", "3.2.1", 19, false,
                    ["@babel/code-frame", "@babel/highlight", "chalk", "ansi-styles"]),
                Row("chalk", "2.4.2", 24, false, ["@babel/code-frame", "@babel/highlight", "chalk"]),
                Row("lodash", "4.17.20", 31, true, ["lodash"]),
                Row("string-width", "4.2.3", 36, true, ["string-width"]),
            ])
    }

    @Test func yarnBerry() throws {
        let result = try YarnLockParser().parse(try fixture("yarn/yarn-berry.lock"), file: "yarn.lock")
        #expect(
            rows(result) == [
                Row("@types/lodash", "4.14.182", 8, true, ["@types/lodash"]),
                Row("lodash", "4.17.21", 15, true, ["lodash"]),
                Row("minimatch", "3.0.4", 22, true, ["minimatch"]),
                Row("brace-expansion", "1.1.11", 31, false, ["minimatch", "brace-expansion"]),
            ])
        #expect(result.problems.map(\.line) == [49])
    }

    @Test(arguments: [
        ("lodash@^4:\n  resolved \"x\"\n", "yarn.lock:1: entry lodash@^4 has no version"),
        ("  version \"1\"\n", "yarn.lock:1: indented line before any entry"),
        ("lodash@^4\n  version \"1\"\n", "yarn.lock:1: expected a 'descriptor:' header"),
        ("__metadata:\n  version: 6\n\"a@npm:1\":\n  version: 1\n", "yarn.lock:3: entry a@npm:1 has no resolution"),
        (
            "__metadata:\n  version: 6\n\"a@npm:1\": [\n",
            "yarn.lock:4: invalid YAML: did not find expected node content"
        ),
    ])
    func yarnMalformed(text: String, message: String) {
        #expect(thrownMessage { _ = try YarnLockParser().parse(Array(text.utf8), file: "yarn.lock") } == message)
    }

    @Test func pnpmV5() throws {
        let result = try PnpmLockParser().parse(try fixture("pnpm/pnpm-lock-v5.yaml"), file: "pnpm-lock.yaml")
        #expect(
            rows(result) == [
                Row("@babel/core", "7.20.2", 17, true, ["@babel/core"]),
                Row("json5", "2.2.1", 24, false, ["@babel/core", "json5"]),
                Row("loose-envify", "1.4.0", 30, false, ["react-dom", "loose-envify"]),
                Row("js-tokens", "4.0.0", 37, false, ["react-dom", "loose-envify", "js-tokens"]),
                Row("react-dom", "18.2.0", 41, true, ["react-dom"]),
                Row("react", "18.2.0", 51, false, ["react-dom", "react"]),
                Row("scheduler", "0.23.0", 58, false, ["react-dom", "scheduler"]),
                Row("typescript", "4.9.3", 64, true, ["typescript"]),
            ])
        #expect(
            result.dependencies.map { $0.notes["dev"] != nil } == [true, true, false, false, false, false, false, true])
    }

    @Test func pnpmV6() throws {
        let result = try PnpmLockParser().parse(try fixture("pnpm/pnpm-lock-v6.yaml"), file: "pnpm-lock.yaml")
        #expect(
            rows(result) == [
                Row("@reduxjs/toolkit", "1.9.5", 17, true, ["@reduxjs/toolkit"]),
                Row("immer", "9.0.21", 26, false, ["@reduxjs/toolkit", "immer"]),
                Row("js-tokens", "4.0.0", 30, false, ["react", "loose-envify", "js-tokens"]),
                Row("loose-envify", "1.4.0", 34, false, ["react", "loose-envify"]),
                Row("react", "18.2.0", 41, true, ["react"]),
            ])
    }

    @Test func pnpmV9SnapshotsAndAliases() throws {
        let result = try PnpmLockParser().parse(try fixture("pnpm/pnpm-lock-v9.yaml"), file: "pnpm-lock.yaml")
        #expect(
            rows(result) == [
                Row("@vitest/utils", "1.0.2", 33, true, ["@vitest/utils"]),
                Row("loose-envify", "1.4.0", 36, false, ["react-dom", "loose-envify"]),
                Row("nanoid", "3.3.4", 40, true, ["nanoid"]),
                Row("react-dom", "18.2.0", 45, true, ["react-dom"]),
                Row("react", "18.2.0", 50, false, ["react-dom", "react"]),
                Row("string-width", "4.2.3", 54, true, ["string-width"]),
            ])
    }

    @Test(arguments: [
        ("packages:\n  /a/1.0.0: {}\n", "pnpm-lock.yaml:1: no lockfileVersion"),
        ("lockfileVersion: 3\n", "pnpm-lock.yaml:1: unsupported pnpm lockfileVersion 3"),
        ("- a\n- b\n", "pnpm-lock.yaml:1: expected a mapping at the top level"),
        (
            "lockfileVersion: '6.0'\npackages:\n  /a@1: {\n",
            "pnpm-lock.yaml:4: invalid YAML: did not find expected node content"
        ),
    ])
    func pnpmMalformed(text: String, message: String) {
        #expect(thrownMessage { _ = try PnpmLockParser().parse(Array(text.utf8), file: "pnpm-lock.yaml") } == message)
    }

    @Test func pnpmUnderstoodKeyShapes() throws {
        let text = """
            lockfileVersion: 5.3
            dependencies:
              '@types/react': 18.0.0
              foo: 1.0.0_@types+react@18.0.0
            packages:
              /@types/react/18.0.0:
                dev: false
              /foo/1.0.0_@types+react@18.0.0:
                dependencies:
                  '@types/react': 18.0.0
              registry.example.com/private-pkg/2.0.0:
                dev: false
              /weird:
                dev: false
            """
        let result = try PnpmLockParser().parse(Array(text.utf8), file: "pnpm-lock.yaml")
        #expect(
            rows(result) == [
                Row("@types/react", "18.0.0", 6, true, ["@types/react"]),
                Row("foo", "1.0.0", 8, true, ["foo"]),
                Row("private-pkg", "2.0.0", 11, false, []),
            ])
        #expect(result.problems.map(\.line) == [13])
    }
}

@Suite struct LockfilePnpmDocumentsTests {
    /// pnpm 10 puts its own tooling's lockfile first, as a separate YAML document.
    @Test func environmentDocumentBeforeTheLockfile() throws {
        let text = """
            ---
            lockfileVersion: '9.0'

            importers:

              .:
                configDependencies: {}
                packageManagerDependencies:
                  pnpm:
                    specifier: 10.12.1
                    version: 10.12.1

            ---
            lockfileVersion: '9.0'

            importers:

              .:
                dependencies:
                  ms:
                    specifier: ^2.1.3
                    version: 2.1.3

            packages:

              ms@2.1.3:
                resolution: {integrity: sha512-6FlzubTLZG3J2a/NVCAleEhjzq5oxgHyaCU9yYXvcLsvoVaHJq/s5xXI6/XXP6tz7R9xAOtHnSO/tXtF3WRTlA==}

            snapshots:

              ms@2.1.3: {}

            """
        let result = try PnpmLockParser().parse(Array(text.utf8), file: "pnpm-lock.yaml")
        #expect(rows(result) == [Row("ms", "2.1.3", 26, true, ["ms"])])
    }

    /// Hostile inputs round 3, finding 9: yarn berry installs what `resolution` names; a `version`
    /// that says otherwise is not what is matched against advisories (and is said to disagree).
    @Test func yarnBerryMatchesWhatTheResolutionInstalls() throws {
        let text = """
            __metadata:
              version: 6

            "lodash@npm:^4.17.0":
              version: 4.17.21
              resolution: "lodash@npm:4.17.4"

            "minimist@patch:minimist@npm%3A1.2.0#./.yarn/patches/m.patch::locator=app%40workspace%3A.":
              version: 1.2.6
              resolution: "minimist@patch:minimist@npm%3A1.2.0#./.yarn/patches/m.patch::version=1.2.0&hash=abc&locator=app%40workspace%3A."

            "app@workspace:.":
              version: 0.0.0-use.local
              resolution: "app@workspace:."
              dependencies:
                lodash: ^4.17.0
            """
        let result = try YarnLockParser().parse(Array(text.utf8), file: "yarn.lock")
        #expect(result.dependencies.map { "\($0.name) \($0.version ?? "")" }.sorted() == ["lodash 4.17.4", "minimist 1.2.0"])
        #expect(result.problems.filter { $0.level == .warning }.count == 2, "\(result.problems)")
    }

    /// Hostile inputs round 3, finding 20: `npm ci` installs the tarball `resolved` names; an
    /// entry's `name` or alias says what the file wants read, the tarball what runs.
    @Test func packageLockMatchesTheResolvedTarball() throws {
        let v3 = """
            {"lockfileVersion": 3, "packages": {
              "": {"dependencies": {"safe": "1.0.0", "@babel/core": "7.0.0"}},
              "node_modules/safe": {"name": "left-pad", "version": "1.0.0",
                "resolved": "https://registry.npmjs.org/lodash/-/lodash-4.17.4.tgz"},
              "node_modules/@babel/core": {"version": "7.0.0",
                "resolved": "https://registry.example/api/npm/%40babel%2Fcore/-/core-7.0.0.tgz"}}}
            """
        let modern = try PackageLockParser().parse(Array(v3.utf8), file: "package-lock.json")
        #expect(modern.dependencies.map { "\($0.name) \($0.version ?? "")" }.sorted() == ["@babel/core 7.0.0", "lodash 4.17.4"])
        #expect(modern.problems.filter { $0.level == .warning }.count == 1, "\(modern.problems)")
        let v1 = """
            {"lockfileVersion": 1, "dependencies": {
              "safe": {"version": "npm:lodash@4.17.4", "resolved": "https://registry.npmjs.org/lodash/-/lodash-4.17.4.tgz"}}}
            """
        let legacy = try PackageLockParser().parse(Array(v1.utf8), file: "package-lock.json")
        #expect(legacy.dependencies.map { "\($0.name) \($0.version ?? "")" } == ["lodash 4.17.4"])
    }
}

/// Bun's text lockfile (issue 60): JSONC, workspaces' requirements as the direct dependencies,
/// nested install paths resolved upwards as Node does.
@Suite struct LockfileBunTests {
    @Test func bunLockWorkspacesNestedPathsAndNonRegistryPackages() throws {
        let result = try BunLockParser().parse(try fixture("bun/bun.lock"), file: "bun.lock")
        #expect(
            rows(result) == [
                Row("@babel/core", "7.24.0", 23, true, ["@babel/core"]),
                Row("semver", "6.3.1", 25, false, ["@babel/core", "semver"]),
                // Required only by a package nothing reaches: installed, no path.
                Row("debug", "4.3.4", 29, false, []),
                Row("express", "4.18.2", 31, true, ["express"]),
                Row("debug", "2.6.9", 33, false, ["express", "debug"]),
                Row("ms", "2.0.0", 35, false, ["express", "debug", "ms"]),
                Row("lodash", "4.17.20", 37, true, ["lodash"]),
                Row("ms", "2.1.2", 39, false, []),
                Row("qs", "6.11.0", 41, false, ["express", "qs"]),
                Row("semver", "7.6.0", 43, false, []),
            ])
        #expect(result.problems.map(\.line) == [45])
        #expect(LockfileDetector(root: ".").parser(forFileName: "bun.lock") is BunLockParser)
    }

    @Test(arguments: [
        ("", "bun.lock:1: empty JSON document"),
        ("{\"packages\": {}}", "bun.lock:1: not a bun.lock: no \"lockfileVersion\""),
        (
            "{\"lockfileVersion\": 1,\n\"packages\": {\"a\": {\"x\": 1}}}",
            "bun.lock:2: package \"a\" must be an array starting with its resolution"
        ),
        ("{\"lockfileVersion\": 1, /* unterminated", "bun.lock:1: unexpected end of JSON in object"),
    ])
    func malformedBunLocks(text: String, message: String) {
        do {
            _ = try BunLockParser().parse(Array(text.utf8), file: "bun.lock")
            Issue.record("accepted: \(text)")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }
}
