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

    @Test("a pattern-inside confines the seed: the same matches, bindings merged, where the inside encloses them")
    func insideConfinesTheSeed() throws {
        let rule = """
            patterns:
              - pattern-inside: log.info(...)
              - pattern-either:
                  - pattern: $PW
                  - pattern: $OBJ.$PW
              - metavariable-regex:
                  metavariable: $PW
                  regex: ^password$
            """
        let source = """
            password = read()
            log.info("user %s", user.password)
            log.info("x", f(password))
            print(password)
            log.debug(password)

            """
        #expect(try findingLines(rule: rule, source: source) == [2, 3])
        #expect(try findingLines(rule: rule, source: "password = 1\nprint(password)\n").isEmpty)
        let regions = EnclosingRegions([
            SourceRange(start: SourceLocation(line: 1, column: 1, offset: 10), end: SourceLocation(line: 1, column: 1, offset: 50)),
            SourceRange(start: SourceLocation(line: 1, column: 1, offset: 12), end: SourceLocation(line: 1, column: 1, offset: 20)),
            SourceRange(start: SourceLocation(line: 1, column: 1, offset: 60), end: SourceLocation(line: 1, column: 1, offset: 70)),
        ])
        func encloses(_ from: Int, _ to: Int) -> Bool {
            regions.encloses(
                SourceRange(start: SourceLocation(line: 1, column: 1, offset: from), end: SourceLocation(line: 1, column: 1, offset: to)))
        }
        #expect(encloses(10, 50) && encloses(30, 45) && encloses(61, 70))
        #expect(!encloses(9, 20) && !encloses(45, 55) && !encloses(55, 58) && !encloses(65, 71))
    }

    @Test("a call seed with a regex on its method name finds the calls it names, aliased ones too, and only those")
    func namedCallSeed() throws {
        let rule = """
            patterns:
              - pattern: $LOG.$M(...)
              - metavariable-regex:
                  metavariable: $M
                  regex: ^(?:info|warning)$
            """
        let source = """
            from logging import warning as warn
            log.info("a")
            log.debug("b")
            warn("c")
            self.logger.warning(x.info)
            info("d")

            """
        #expect(try findingLines(rule: rule, source: source) == [2, 4, 5])
        #expect(try findingLines(rule: rule, source: "log.debug(1)\nx.info\n").isEmpty)
    }

    @Test("a search rule whose positive clauses name nothing needs what its pattern-inside names")
    func insideRequirement() throws {
        let rule = try RuleLoader.parse(
            """
            id: t
            message: m
            severity: low
            languages: [python]
            patterns:
              - pattern-inside: subprocess.run(...)
              - pattern: $X
            """, file: "t.yaml")
        let formula = try #require(rule.mode.formula)
        #expect(CompiledRule.required(formula) == [["subprocess", "run"]])
    }

    @Test("a regex on a metavariable bound at a fixed place drops candidates early, with the same findings")
    func bindingProbes() throws {
        let rule = """
            patterns:
              - pattern-either:
                  - pattern: $N = $VALUE
                  - pattern: $OBJ.$N = $VALUE
                  - pattern: $F("$N", ...)
              - metavariable-regex:
                  metavariable: $N
                  regex: (?i)["']?(?:passw|secret|hunter)
            """
        let source = """
            password = x
            user = y
            self.secret = z
            self.name = z
            check("hunter2", 1)
            check(k=1, *["hunter2"])
            check(other, "hunter2")

            """
        #expect(try findingLines(rule: rule, source: source) == [1, 3, 5])
        let pattern = try PythonParser.parsePattern("$F(\"$V\", ...)")
        let probe = try #require(BindingProbe("$V", in: pattern, regex: try MetavariableRegex(source: "hunter")))
        #expect(probe.identifierKind == nil)
        #expect(BindingProbe("$F", in: pattern, regex: try MetavariableRegex(source: "run")) == nil)
        #expect(BindingProbe("$V", in: try PythonParser.parsePattern("f(..., \"$V\")"), regex: try MetavariableRegex(source: "x")) == nil)
    }

    /// Every pattern tree of the shipped rules, search and taint.
    static func shippedPatterns() throws -> [SyntaxNode] {
        var out: [SyntaxNode] = []
        func collect(_ formula: PatternFormula) {
            switch formula {
            case .pattern(let pattern): out.append(pattern.tree)
            case .either(let alternatives): alternatives.forEach(collect)
            case .all(let clauses):
                for clause in clauses {
                    switch clause {
                    case .positive(let f), .not(let f), .inside(let f), .notInside(let f), .metavariableValue(_, let f): collect(f)
                    case .metavariableRegex: break
                    }
                }
            }
        }
        for rule in try RuleSet.load(directories: [RuleFilesTests.rulesDirectory]).rules {
            switch rule.mode {
            case .search(let formula): collect(formula)
            case .taint(let spec):
                out += spec.sources.map(\.pattern.tree) + spec.sinks.map(\.pattern.tree) + spec.sanitizers.map(\.tree)
            }
        }
        return out.filter { $0.kind != .module }
    }

    @Test("the quick rejection never rejects a node a shipped pattern matches (rule test files)")
    func cannotMatchSound() throws {
        let patterns = try Self.shippedPatterns()
        #expect(patterns.count > 200)
        var matched = 0
        var rejected = 0
        // Every sixth rule test file: all of them take minutes in a debug build.
        let files = RuleFilesTests.testFiles.filter { $0.hasSuffix(".py") }
        for file in stride(from: 0, to: files.count, by: 6).map({ files[$0] }) {
            let source = try String(contentsOfFile: RuleFilesTests.rulesDirectory + "/" + file, encoding: .utf8)
            guard let module = try? PythonParser.parseModule(source: source, fileName: file) else { continue }
            let matcher = PatternMatcher(aliases: ImportAliases(root: module.root))
            let nodes = module.root.preorder
            for pattern in patterns {
                for node in nodes {
                    var bindings = Bindings()
                    let matches = matcher.match(pattern, node, &bindings)
                    let cannot = PatternMatcher.cannotMatch(pattern, node)
                    #expect(!(matches && cannot), "\(file): \(pattern.sexpr) matches \(node.sexpr) but is rejected")
                    if matches { matched += 1 }
                    if cannot { rejected += 1 }
                }
            }
        }
        #expect(matched > 100)
        // Worth having: most candidates are rejected without a binding.
        #expect(rejected > matched * 10)
    }
}

extension RuleMode {
    fileprivate var formula: PatternFormula? {
        if case .search(let formula) = self { return formula }
        return nil
    }
}
