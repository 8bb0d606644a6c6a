import Support
import Testing

@testable import SCA

/// Lockfiles written to hide a pin from the scanner while the package manager still installs
/// it: each file must read exactly as its own tool reads it (issue 26). The expected results
/// were checked against pip 24.2's `parse_requirements`.
@Suite struct HostileLockfileInputTests {
    private func pins(_ bytes: [UInt8], file: String = "requirements.txt") throws -> [String] {
        let result = try RequirementsParser(loader: { _ in [] }).parse(bytes, file: file)
        return result.dependencies.map { "\($0.line) \($0.name) \($0.version ?? "nil")" }
    }

    /// pip splits the decoded text with `str.splitlines()`: each of these ends the comment.
    @Test(arguments: ["\u{0B}", "\u{0C}", "\u{1C}", "\u{1D}", "\u{1E}", "\u{85}", "\u{2028}", "\u{2029}"])
    func everyPythonLineBreakEndsAComment(separator: String) throws {
        let text = "# pinned" + separator + "requests==2.19.1\n"
        #expect(try pins(Array(text.utf8)) == ["2 requests 2.19.1"])
    }

    @Test func aLoneCarriageReturnEndsAComment() throws {
        #expect(try pins(Array("# pinned\rrequests==2.19.1\n".utf8)) == ["2 requests 2.19.1"])
    }

    /// Under a latin-1 declaration byte 0x85 decodes to NEL, a line break for pip.
    @Test func aDeclaredLatin1ByteDecodesToALineBreak() throws {
        let bytes = Array("# -*- coding: latin-1 -*-\n# pinned".utf8) + [0x85] + Array("requests==2.19.1\n".utf8)
        #expect(try pins(bytes) == ["3 requests 2.19.1"])
    }

    @Test func utf16WithAByteOrderMarkIsRead() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "requests==2.19.1\n".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(try pins(bytes) == ["1 requests 2.19.1"])
    }

    /// `str.strip()` and the comment pattern's `\s` are Unicode whitespace.
    @Test func unicodeWhitespaceAroundARequirementIsStripped() throws {
        #expect(try pins(Array("\u{A0}requests==2.19.1\u{A0}# note\n".utf8)) == ["1 requests 2.19.1"])
    }

    /// pip joins continuations before it strips comments: the comment swallows the next line.
    @Test func aCommentOnAContinuedLineSwallowsTheNextLine() throws {
        #expect(try pins(Array("flask==0.12.2 #x \\\nrequests==2.19.1\n".utf8)) == ["1 flask 0.12.2"])
    }

    @Test func aContinuationJoinsASplitName() throws {
        #expect(try pins(Array("req\\\nuests==2.19.1\n".utf8)) == ["1 requests 2.19.1"])
    }

    /// An encoding pip would use but Sentinel cannot decode as CPython does makes the file an
    /// input error (pip reads `requests==2.19.1` here), never an empty, clean result.
    @Test func anUndecodableDeclaredEncodingIsAnError() throws {
        let bytes = Array("# coding: unicode_escape\n# x\\nrequests==2.19.1\n".utf8)
        let error = #expect(throws: SentinelError.self) {
            try RequirementsParser(loader: { _ in [] }).parse(bytes, file: "requirements.txt")
        }
        #expect(error?.message.contains("unicode_escape") == true)
    }

    @Test func anUndecodableIncludeIsAnError() throws {
        let parser = RequirementsParser(loader: { _ in Array("# coding: utf-7\nrequests==2.19.1\n".utf8) })
        let result = try parser.parse(Array("-r more.txt\n".utf8), file: "requirements.txt")
        #expect(result.problems.contains { $0.level == .error && $0.file == "more.txt" && $0.message.contains("utf-7") })
    }

    /// pipenv reads Pipfile.lock with Python's json: a repeated key keeps its last value.
    @Test func pipfileLockRepeatedPackageKeepsTheLastValue() throws {
        let text = """
            {"_meta": {}, "default": {"requests": {"version": "==2.31.0"}, "requests": {"version": "==2.19.1"}},
             "develop": {}}
            """
        let result = try PipfileLockParser().parse(Array(text.utf8), file: "Pipfile.lock", manifest: nil)
        #expect(result.dependencies.map { "\($0.name) \($0.version ?? "nil")" } == ["requests 2.19.1"])
    }

    @Test func pipfileLockRepeatedSectionKeepsTheLastValue() throws {
        let text = """
            {"default": {"requests": {"version": "==2.31.0"}},
             "default": {"requests": {"version": "==2.19.1"}}}
            """
        let result = try PipfileLockParser().parse(Array(text.utf8), file: "Pipfile.lock", manifest: nil)
        #expect(result.dependencies.map { "\($0.name) \($0.version ?? "nil")" } == ["requests 2.19.1"])
    }

    /// go.mod's whitespace is space, tab and carriage return; only `\n` ends a line.
    @Test func goModCarriageReturnIsSpaceNotALineBreak() throws {
        let text = "module example.com/m\n\ngo 1.20\n\nrequire golang.org/x/text\rv0.3.0\n"
        let result = try GoModParser().parse(Array(text.utf8), file: "go.mod")
        #expect(result.dependencies.contains { $0.name == "golang.org/x/text" && $0.version == "v0.3.0" })
    }

    @Test func goModCommentRunsToTheLineFeed() throws {
        let text = "module example.com/m\n\ngo 1.20\n\n// old\rrequire golang.org/x/text v0.3.0\n"
        let result = try GoModParser().parse(Array(text.utf8), file: "go.mod")
        #expect(!result.dependencies.contains { $0.name == "golang.org/x/text" })
    }

    /// go.sum lines end at `\n` and split with `strings.Fields`: any Unicode space separates,
    /// a carriage return does not end the line.
    @Test func goSumFieldsSplitAtUnicodeSpace() throws {
        let text = "golang.org/x/text v0.3.0\u{A0}h1:olpwvP2KacW1ZWvsR7uQhoyTYvKAupfQrRGBFM352Gk=\n"
        let result = try GoSumParser().parse(Array(text.utf8), file: "go.sum")
        #expect(result.dependencies.map { "\($0.name) \($0.version ?? "nil")" } == ["golang.org/x/text v0.3.0"])
        let joined = "a.example/m v1.0.0 h1:x=\rb.example/m v1.0.0 h1:y=\n"
        #expect(throws: SentinelError.self) { try GoSumParser().parse(Array(joined.utf8), file: "go.sum") }
    }
}
