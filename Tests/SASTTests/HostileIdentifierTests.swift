import Findings
import Testing

@testable import SAST

/// CPython reads every identifier in NFKC (PEP 3131): a call spelled in mathematical letters,
/// modifier letters or letterlike symbols is the call itself to the interpreter, and must be to
/// every rule too (hostile inputs round 3, finding 1).
struct HostileIdentifierTests {
    @Test(
        "identifiers are matched as CPython reads them: NFKC",
        arguments: [
            "import os\n𝐨𝐬.𝐬𝐲𝐬𝐭𝐞𝐦(x)\n", "import os\nos.sʸstem(x)\n", "import os\nｏｓ.system(x)\n", "import os\nos.ﬁle = 1\nos.system(x)\n",
        ])
    func identifiersAreNormalized(source: String) throws {
        let lines = try findingLines(rule: patternRule("os.system(...)"), source: source)
        #expect(lines == [source.split(separator: "\n").count], "\(source)")
    }

    @Test("a builtin spelled with a letterlike symbol is the builtin")
    func letterlikeBuiltin() throws {
        #expect(try findingLines(rule: patternRule("eval(...)"), source: "ℯval(x)\n") == [1])
    }
}
