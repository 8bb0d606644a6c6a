import PythonSyntax
import Testing

@testable import SAST

/// What a file must contain before a pattern or a rule is tried in it: the prefilters only skip
/// files that cannot match, so each case checks a match where the text is present and none
/// where it is absent.
@Suite("Prefilters")
struct PrefilterTests {
    static func strings(_ pattern: String) throws -> Set<String> {
        PatternIndexKey.requiredStrings(try PythonParser.parsePattern(pattern))
    }

    @Test("a pattern's concrete strings are required; wildcards, metavariables and alternatives are not")
    func requiredStrings() throws {
        #expect(try Self.strings("{..., \"password\": \"...\", ...}") == ["password"])
        #expect(try Self.strings("$F(..., host=\"::\", ...)") == ["::"])
        #expect(try Self.strings("print(\"...\", \"$S\")").isEmpty)
        #expect(try Self.strings("f(a or \"x\")").isEmpty)
    }

    @Test("a pattern with a concrete string matches where the file has that string, and only there")
    func stringPrefilterKeepsMatches() throws {
        let rule = patternRule("{..., \"password\": \"...\", ...}")
        #expect(try findingLines(rule: rule, source: "x = 1\nc = {'user': 'a', 'password': 'hunter2'}\n") == [2])
        #expect(try findingLines(rule: rule, source: "c = {'user': 'a', 'pass': 'hunter2'}\nd = 'password'\n").isEmpty)
    }

    @Test("a regex on a string every alternative binds is tried on the file's strings first")
    func stringRegexSeed() throws {
        let rule = """
            patterns:
              - pattern-either:
                  - pattern: $F("$Q", ...)
                  - pattern: $X = "$Q"
              - metavariable-regex:
                  metavariable: $Q
                  regex: (?i)^f['"]select\\b
            """
        #expect(try findingLines(rule: rule, source: "q = f'SELECT {x}'\nrun(f'select {y}')\nz = 'select'\n") == [1, 2])
        #expect(try findingLines(rule: rule, source: "q = 'SELECT 1'\nrun(f'update {y}')\n").isEmpty)
        let seed = try #require(
            try RuleLoader.parse("id: t\nmessage: m\nseverity: low\nlanguages: [python]\n" + rule, file: "t.yaml").mode.formula)
        guard case .all(let clauses) = seed, case .positive(let first) = clauses[0] else {
            Issue.record("unexpected formula shape")
            return
        }
        #expect(PatternSearch.bindsString("$Q", first))
        #expect(!PatternSearch.bindsString("$F", first))
    }
}

extension RuleMode {
    fileprivate var formula: PatternFormula? {
        if case .search(let formula) = self { return formula }
        return nil
    }
}
