import Foundation
import Testing

@testable import SCA

/// Lockfiles that do not record the project's own requirements take them from the manifest.
@Suite struct LockfileManifestTests {
    @Test func poetryWithPyproject() throws {
        let result = try PoetryLockParser().parse(
            try fixture("poetry/poetry.lock"), file: "poetry.lock", manifest: try fixture("poetry/pyproject.toml"))
        #expect(
            rows(result) == [
                Row("certifi", "2021.10.8", 4, false, ["requests", "certifi"]),
                Row("charset-normalizer", "2.0.12", 16, false, ["requests", "charset-normalizer"]),
                Row("pytest", "6.2.5", 27, true, ["pytest"]),
                Row("requests", "2.26.0", 38, true, ["requests"]),
                Row("toml", "0.10.2", 54, false, ["pytest", "toml"]),
                // Asked for by the project as well as by requests: direct wins.
                Row("urllib3", "1.26.7", 62, true, ["urllib3"]),
            ])
    }

    @Test func pdmWithPyproject() throws {
        let result = try PDMLockParser().parse(
            try fixture("pdm/pdm.lock"), file: "pdm.lock", manifest: try fixture("pdm/pyproject.toml"))
        #expect(
            rows(result) == [
                Row("click", "8.1.3", 11, true, ["click"]),
                Row("colorama", "0.4.6", 24, false, ["click", "colorama"]),
                Row("flask", "2.2.2", 32, true, ["flask"]),
                Row("itsdangerous", "2.1.2", 45, false, ["flask", "itsdangerous"]),
                Row("jinja2", "3.1.2", 52, false, ["flask", "jinja2"]),
                Row("markupsafe", "2.1.1", 62, false, ["flask", "jinja2", "markupsafe"]),
                Row("werkzeug", "2.2.2", 69, false, ["flask", "werkzeug"]),
                Row("pytest", "7.2.0", 79, true, ["pytest"]),
            ])
    }

    @Test func composerWithComposerJSON() throws {
        let result = try ComposerLockParser().parse(
            try fixture("composer/composer.lock"), file: "composer.lock",
            manifest: try fixture("composer/composer.json"))
        #expect(rows(result).map(\.isDirect) == [true, true, true, true, false])
        #expect(rows(result)[4].path == ["phpunit/phpunit", "sebastian/diff"])
    }

    @Test func yarnV1WithPackageJSON() throws {
        let result = try YarnLockParser().parse(
            try fixture("yarn/yarn-v1.lock"), file: "yarn.lock", manifest: try fixture("yarn/package.json"))
        #expect(
            rows(result) == [
                // The lockfile keeps it, but package.json no longer asks for it.
                Row("@babel/code-frame", "7.12.13", 5, false, []),
                Row("@babel/highlight", "7.13.10", 12, true, ["@babel/highlight"]),
                Row("ansi-styles", "3.2.1", 19, false, ["chalk", "ansi-styles"]),
                Row("chalk", "2.4.2", 24, true, ["chalk"]),
                Row("lodash", "4.17.20", 31, true, ["lodash"]),
                Row("string-width", "4.2.3", 36, false, []),
            ])
    }

    @Test func packageLockV1WithPackageJSON() throws {
        let result = try PackageLockParser().parse(
            try fixture("npm/package-lock-v1.json"), file: "package-lock.json",
            manifest: try fixture("npm/package.json"))
        #expect(rows(result).filter(\.isDirect).map(\.name) == ["@babel/code-frame", "express", "lodash"])
        #expect(rows(result).first { $0.name == "ms" && $0.version == "2.1.2" }?.path == [])
    }

    @Test func unreadableManifestFallsBackAndSays() throws {
        let result = try ComposerLockParser().parse(
            try fixture("composer/composer.lock"), file: "composer.lock", manifest: Array("{ not json".utf8))
        #expect(rows(result).map(\.isDirect) == [true, false, true, true, false])
        #expect(
            result.problems.map(\.description) == [
                "composer.lock:0: warning: composer.json beside it could not be read; direct dependencies guessed"
            ])
    }

    @Test func detectorPassesTheManifestBesideTheLockfile() throws {
        let tree = try LockfileDetectorTests.Tree()
        try tree.write("api/poetry.lock", String(decoding: try fixture("poetry/poetry.lock"), as: UTF8.self))
        try tree.write("api/pyproject.toml", String(decoding: try fixture("poetry/pyproject.toml"), as: UTF8.self))
        let scan = try LockfileDetector(root: tree.root).scan()
        #expect(scan.dependencies.first { $0.name == "urllib3" }?.isDirect == true)
    }
}

@Suite struct LockfilePipfileManifestTests {
    @Test func pipfileNamesTheDirectOnes() throws {
        let result = try PipfileLockParser().parse(
            try fixture("pipenv/Pipfile.lock"), file: "Pipfile.lock", manifest: try fixture("pipenv/Pipfile"))
        #expect(
            rows(result) == [
                Row("certifi", "2020.12.5", 19, false, []),
                Row("flask", "1.1.2", 25, true, ["flask"]),
                Row("importlib-metadata", "4.0.1", 32, true, ["importlib-metadata"]),
                Row("pytest", "6.2.3", 45, true, ["pytest"]),
            ])
    }
}
