import Testing

@testable import SCA

@Suite struct LockfileCargoGoTests {
    @Test func cargoV3() throws {
        let result = try CargoLockParser().parse(try fixture("cargo/Cargo-v3.lock"), file: "Cargo.lock")
        #expect(
            rows(result) == [
                Row("autocfg", "1.1.0", 6, false, ["tokio", "autocfg"]),
                Row("bytes", "1.4.0", 12, false, ["tokio", "bytes"]),
                Row("serde", "1.0.160", 27, true, ["serde"]),
                Row("time", "0.1.45", 33, true, ["time"]),
                Row("time", "0.3.20", 39, false, ["tokio", "time"]),
                Row("tokio", "1.28.0", 45, true, ["tokio"]),
            ])
        #expect(result.dependencies.allSatisfy { $0.ecosystem == .cratesIO })
        #expect(result.problems.isEmpty)
    }

    @Test func cargoV4WorkspaceAndGitSource() throws {
        let result = try CargoLockParser().parse(try fixture("cargo/Cargo-v4.lock"), file: "Cargo.lock")
        #expect(
            rows(result) == [
                Row("cfg-if", "1.0.0", 6, true, ["cfg-if"]),
                Row("internal-macros", "0.3.1", 28, true, ["internal-macros"]),
                Row("smallvec", "1.6.0", 33, true, ["smallvec"]),
            ])
        #expect(result.problems.map(\.line) == [28])
        #expect(result.dependencies[2].notes["source"] == "sparse+https://index.crates.io/")
    }

    @Test func cargoV1WithSourcesInDependencies() throws {
        let result = try CargoLockParser().parse(try fixture("cargo/Cargo-v1.lock"), file: "Cargo.lock")
        #expect(
            rows(result) == [
                Row("libc", "0.2.43", 10, true, ["libc"]),
                Row("smallvec", "0.6.5", 15, true, ["smallvec"]),
                Row("unreachable", "1.0.0", 23, false, ["smallvec", "unreachable"]),
            ])
    }

    @Test(arguments: [
        (
            "version = 3\n[[package]]\nname = \"a\"\nversion = \"1\"\ndependencies = [1]\n",
            "Cargo.lock:3: dependencies of a must be strings"
        ),
        (
            "version = 3\n[[package]]\nname = \"a\"\nversion = \"1\"\ndependencies = [\n \"b\",\n",
            "Cargo.lock:7: unterminated array"
        ),
        ("version = \n", "Cargo.lock:1: expected a value"),
        ("[[package]]\nname = \"a\" junk\n", "Cargo.lock:2: unexpected text after a value"),
    ])
    func cargoMalformed(text: String, message: String) {
        #expect(thrownMessage { _ = try CargoLockParser().parse(Array(text.utf8), file: "Cargo.lock") } == message)
    }

    @Test func goMod() throws {
        let result = try GoModParser().parse(try fixture("go/go.mod"), file: "go.mod")
        #expect(
            rows(result) == [
                Row("stdlib", "1.20", 3, true, []),
                Row("github.com/gin-gonic/gin", "v1.9.0", 8, true, ["github.com/gin-gonic/gin"]),
                Row("github.com/golang-jwt/jwt/v4", "v4.4.2", 9, true, ["github.com/golang-jwt/jwt/v4"]),
                Row("golang.org/x/crypto", "v0.7.0", 10, false, []),
                Row("golang.org/x/net", "v0.17.0", 11, false, []),
                Row("gopkg.in/yaml.v3", "v3.0.1", 12, false, []),
                Row("github.com/sirupsen/logrus", "v1.9.0", 16, true, ["github.com/sirupsen/logrus"]),
            ])
        #expect(result.dependencies[0].notes["toolchain"] == "go1.21.5")
        #expect(result.dependencies[4].notes["replaces"] == "golang.org/x/net@v0.8.0")
        #expect(result.dependencies[4].notes["replaceLine"] == "19")
        #expect(
            result.problems.map(\.description) == [
                "go.mod:21: info: github.com/example/shared is replaced by local path ../shared, not matched against advisories"
            ])
    }

    @Test(arguments: [
        ("module m\nrequire (\n\tgithub.com/a/b\n)\n", "go.mod:3: require needs a module path and a version"),
        ("module m\nrequire (\n\tgithub.com/a/b v1.0.0\n", "go.mod:3: unterminated require ( block"),
        ("module m\nfrobnicate x\n", "go.mod:2: unknown directive 'frobnicate'"),
        ("module m\nreplace a => \n", "go.mod:2: replace needs 'old [version] => new [version]'"),
    ])
    func goModMalformed(text: String, message: String) {
        #expect(thrownMessage { _ = try GoModParser().parse(Array(text.utf8), file: "go.mod") } == message)
    }

    @Test func goSumDeduplicatesGoModLines() throws {
        let result = try GoSumParser().parse(try fixture("go/go.sum"), file: "go.sum")
        #expect(
            rows(result) == [
                Row("github.com/gin-gonic/gin", "v1.9.0", 1, true, []),
                Row("github.com/golang-jwt/jwt/v4", "v4.4.2", 3, true, []),
                Row("github.com/stretchr/testify", "v1.8.1", 5, true, []),
                Row("golang.org/x/crypto", "v0.7.0", 6, true, []),
                Row("golang.org/x/net", "v0.17.0", 8, true, []),
            ])
        #expect(result.dependencies.map { $0.notes["goModOnly"] != nil } == [false, false, true, false, false])
    }

    @Test func goSumMalformedLine() {
        let text = "github.com/a/b v1.0.0 h1:abc=\ngithub.com/a/b v1.0.0\n"
        #expect(
            thrownMessage { _ = try GoSumParser().parse(Array(text.utf8), file: "go.sum") }
                == "go.sum:2: expected 'module version hash'")
    }
}
