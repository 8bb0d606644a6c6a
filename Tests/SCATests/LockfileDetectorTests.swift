import Foundation
import Testing

@testable import SCA

@Suite struct LockfileDetectorTests {
    /// A scratch tree, removed at the end of the test that made it.
    final class Tree {
        let root: String

        init() throws {
            root = NSTemporaryDirectory() + "sentinel-lockfiles-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        }

        func write(_ relative: String, _ text: String) throws {
            let path = root + "/" + relative
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }
    }

    @Test func findsParsesAndSkips() throws {
        let tree = try Tree()
        try tree.write("requirements.txt", "-r requirements/base.txt\nflask==2.0.1\n")
        try tree.write("requirements/base.txt", "six==1.16.0\n")
        try tree.write(
            "web/package-lock.json", String(decoding: try fixture("npm/package-lock-v2.json"), as: UTF8.self))
        try tree.write("web/node_modules/left-pad/package-lock.json", "{}")
        try tree.write(".git/modules/x/go.mod", "module x\n")
        try tree.write("svc/go.mod", "module example.com/svc\n\ngo 1.21\n")
        try tree.write("crate/Cargo.lock", "[[package]]\nname = \"a\"\nversion = 1.0\n")
        try tree.write("crate/target/Cargo.lock", "broken")
        try tree.write("README.md", "not a lockfile")
        let scan = try LockfileDetector(root: tree.root).scan()
        #expect(
            scan.files == [
                "crate/Cargo.lock", "requirements.txt", "requirements/base.txt", "svc/go.mod", "web/package-lock.json",
            ])
        #expect(
            scan.results.map(\.file) == [
                "requirements.txt", "requirements/base.txt", "svc/go.mod", "web/package-lock.json",
            ])
        #expect(scan.results.map(\.format) == ["requirements.txt", "requirements.txt", "go.mod", "package-lock.json"])
        // base.txt was already reported as an include of requirements.txt.
        #expect(scan.results[1].dependencies.isEmpty)
        #expect(!scan.nothingReadable)
        #expect(
            scan.errors.map(\.description) == [
                "crate/Cargo.lock:2: error: package a has no string 'version'"
            ])
        // The include is read relative to the including file, from the scan root.
        #expect(
            scan.results[0].dependencies.map { "\($0.file):\($0.line) \($0.name)" } == [
                "requirements/base.txt:1 six", "requirements.txt:2 flask",
            ])
        #expect(scan.dependencies.count == 2 + 1 + 4)
    }

    @Test func aSingleFileCanBeScanned() throws {
        let tree = try Tree()
        try tree.write("deps/requirements-prod.txt", "-r common.txt\n")
        try tree.write("deps/common.txt", "idna==3.4\n")
        let scan = try LockfileDetector(root: tree.root + "/deps/requirements-prod.txt").scan()
        #expect(scan.results.flatMap(\.dependencies).map(\.name) == ["idna"])
    }

    @Test func nothingReadableWhenEveryFileIsMalformed() throws {
        let tree = try Tree()
        try tree.write("package-lock.json", "{")
        try tree.write("sub/Gemfile.lock", "GEM\n  specs:\n    rack\n")
        let scan = try LockfileDetector(root: tree.root).scan()
        #expect(scan.nothingReadable)
        #expect(
            scan.errors.map(\.description) == [
                "package-lock.json:1: error: unexpected end of JSON in object",
                "sub/Gemfile.lock:3: error: expected 'name (version)' in specs",
            ])
    }

    @Test func includesOutsideTheTreeAreNotFollowed() throws {
        let tree = try Tree()
        try tree.write("app/requirements.txt", "-r ../../outside.txt\n-r /etc/passwd\nflask==2.0.1\n")
        let scan = try LockfileDetector(root: tree.root).scan()
        #expect(scan.dependencies.map(\.name) == ["flask"])
        #expect(
            scan.results.first?.problems.map(\.description) == [
                "app/requirements.txt:1: warning: include outside the scanned tree not followed: ../../outside.txt",
                "app/requirements.txt:2: warning: include outside the scanned tree not followed: /etc/passwd",
            ])
    }

    @Test func symbolicLinksAreNotFollowed() throws {
        let tree = try Tree()
        try tree.write("app/go.mod", "module m\n\ngo 1.21\n")
        // A loop back to the root and a link to a lockfile: neither is read.
        try FileManager.default.createSymbolicLink(atPath: tree.root + "/app/loop", withDestinationPath: tree.root)
        try FileManager.default.createSymbolicLink(
            atPath: tree.root + "/app/go.sum", withDestinationPath: "/etc/hostname")
        let scan = try LockfileDetector(root: tree.root).scan()
        #expect(scan.files == ["app/go.mod"])
    }

    @Test func includesThroughSymbolicLinksAreRefused() throws {
        let tree = try Tree()
        try tree.write("requirements.txt", "-r zero.txt\nsix==1.16.0\n")
        try FileManager.default.createSymbolicLink(atPath: tree.root + "/zero.txt", withDestinationPath: "/dev/zero")
        try tree.write("api/poetry.lock", "[[package]]\nname = \"six\"\nversion = \"1.16.0\"\n")
        try FileManager.default.createSymbolicLink(
            atPath: tree.root + "/api/pyproject.toml", withDestinationPath: "/dev/zero")
        let scan = try LockfileDetector(root: tree.root).scan()
        #expect(scan.dependencies.map { "\($0.file) \($0.name)" } == ["api/poetry.lock six", "requirements.txt six"])
        #expect(
            scan.results.last?.problems.map(\.description) == [
                "requirements.txt:1: error: cannot read included file zero.txt"
            ])
    }

    /// `e -> HOST`: `-r e/secret.txt` looks inside the tree by its text; it is not (issue 26).
    @Test func includesThroughALinkedDirectoryAreRefused() throws {
        let tree = try Tree()
        let host = try Tree()
        try host.write("secret.txt", "evil==6.6.6\nHOST-MARKER shadow line\n")
        try host.write("constraints.txt", "six==0.0.1\nHOST-MARKER constraint line\n")
        try FileManager.default.createSymbolicLink(atPath: tree.root + "/e", withDestinationPath: host.root)
        try tree.write("requirements.txt", "-r base.txt\n-c e/constraints.txt\nsix\n")
        try tree.write("base.txt", "-r e/secret.txt\n")
        let scan = try LockfileDetector(root: tree.root).scan()
        #expect(scan.dependencies.map { "\($0.name) \($0.version ?? "nil")" } == ["six nil"])
        let problems = scan.results.flatMap(\.problems).map(\.description)
        #expect(!problems.joined().contains("HOST-MARKER"), "\(problems)")
        #expect(problems.contains("base.txt:1: error: cannot read included file e/secret.txt"), "\(problems)")
        #expect(problems.contains("requirements.txt:2: error: cannot read included file e/constraints.txt"), "\(problems)")
    }

    /// Hostile inputs round 3, finding 7: pip splits an option line as shlex does; a quoted or
    /// escaped include is read, and one that cannot be read makes the result not clean (an error).
    @Test func includesAreSplitAsPipSplitsThem() throws {
        let tree = try Tree()
        try tree.write("sub dir/reqs.txt", "urllib3==1.24.1\n")
        try tree.write("sub dir/more reqs.txt", "six==1.16.0\n")
        try tree.write("a b.txt", "idna==2.5\n")
        try tree.write(
            "requirements.txt", "-r \"sub dir/reqs.txt\"\n--requirement='sub dir/more reqs.txt'\n-r a\\ b.txt\n-r \"missing file.txt\"\n")
        let scan = try LockfileDetector(root: tree.root).scan()
        #expect(
            scan.dependencies.map { "\($0.file) \($0.name)" }.sorted() == [
                "a b.txt idna", "sub dir/more reqs.txt six", "sub dir/reqs.txt urllib3",
            ])
        #expect(
            scan.results.flatMap(\.problems).map(\.description) == ["requirements.txt:4: error: cannot read included file missing file.txt"]
        )
    }

    @Test func missingRootThrows() {
        #expect(throws: (any Error).self) { try LockfileDetector(root: "/nonexistent/sentinel-test").scan() }
    }

    @Test(
        arguments: [
            ("requirements.txt", "requirements.txt"), ("requirements-dev.txt", "requirements.txt"),
            ("dev-requirements.txt", "requirements.txt"), ("requirements.in", "requirements.txt"),
            ("Pipfile.lock", "Pipfile.lock"), ("poetry.lock", "poetry.lock"), ("uv.lock", "uv.lock"),
            ("pdm.lock", "pdm.lock"), ("pyproject.toml", "pyproject.toml"),
            ("Cargo.lock", "Cargo.lock"), ("go.mod", "go.mod"), ("go.sum", "go.sum"),
            ("package-lock.json", "package-lock.json"), ("npm-shrinkwrap.json", "package-lock.json"),
            ("yarn.lock", "yarn.lock"), ("pnpm-lock.yaml", "pnpm-lock.yaml"), ("Gemfile.lock", "Gemfile.lock"),
            ("composer.lock", "composer.lock"), ("Package.resolved", "Package.resolved"),
            ("package.json", nil), ("requirements.txt.orig", nil), ("Cargo.toml", nil),
        ] as [(String, String?)])
    func recognisesFileNames(name: String, format: String?) {
        let parser = LockfileDetector(root: ".").parser(forFileName: name)
        #expect(parser.map { type(of: $0).format } == format)
    }
}
