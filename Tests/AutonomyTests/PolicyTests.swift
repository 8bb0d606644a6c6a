import Autonomy
import Digest
import Foundation
import Support
import Testing

@Suite struct PolicyTests {
    static func parse(_ text: String) throws -> Policy { try Policy.parse(text, file: "policy.yml") }

    /// Every ordering of `items`.
    static func permutations<T>(_ items: [T]) -> [[T]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { index in
            var rest = items
            let first = rest.remove(at: index)
            return permutations(rest).map { [first] + $0 }
        }
    }

    /// The verdict without its reasons, which quote line numbers that move when rules move.
    struct Decision: Equatable {
        let effect: RuleEffect
        let rule: String
        let protectedPaths: [String]
        let uncoveredPaths: [String]
        init(_ verdict: PolicyVerdict) {
            effect = verdict.effect
            rule = verdict.rule
            protectedPaths = verdict.protectedPaths
            uncoveredPaths = verdict.uncoveredPaths
        }
    }

    // MARK: - Defaults

    @Test func theDefaultPolicyObservesWithBuiltInProtectionAndNoRules() {
        let policy = Policy.default
        #expect(policy.file == nil && policy.sha256 == nil)
        #expect(policy.level == .observer)
        #expect(policy.rules.isEmpty)
        #expect(policy.protected.map(\.pattern) == Policy.builtInProtectedPatterns)
        #expect(policy.minConfidence == 0.95 && policy.maxRisk == 0.33)
        #expect(policy.repositoryDailyLimit == 10 && policy.classDailyLimits.isEmpty)
        #expect(policy.notifyFile == nil && policy.webhook == nil && policy.github == nil)
        // With no rules nothing is allowed: every path needs approval.
        let verdict = policy.evaluate(.dependencyBump, paths: ["requirements.txt"], ecosystem: "PyPI")
        #expect(verdict.effect == .ask && verdict.uncoveredPaths == ["requirements.txt"])
    }

    @Test func anEmptyFileIsTheDefaultPolicyWithItsNameAndHash() throws {
        let policy = try Self.parse("# nothing yet\n")
        var expected = Policy.default
        expected.file = "policy.yml"
        expected.sha256 = SHA256.hex("# nothing yet\n")
        #expect(policy == expected)
    }

    @Test func everyKeyOfAFullFileIsRead() throws {
        let policy = try Self.parse(
            """
            version: 1
            level: actor
            rules:
              - id: bumps
                allow: [dependency-bump]
                paths: ["requirements*.txt", "pyproject.toml", "poetry.lock"]
              - deny: "*"
                paths: ["src/auth/**"]
            protected: ["docs/legal/**"]
            actor:
              minConfidence: 0.9
              maxRisk: medium
            limits:
              repository: 4
              classes: {dependency-bump: 2, llm-patch: 0}
            notify:
              file: .sentinel-notes.jsonl
              webhook: https://hooks.example/x
            github:
              repository: acme/shop
              api: https://ghe.example/api/v3/
              tokenEnv: SHOP_TOKEN
              labels: [sentinel, security]
              base: develop
            """)
        #expect(policy.level == .actor)
        #expect(
            policy.rules == [
                PolicyRule(
                    id: "bumps", effect: .allow, classes: [.dependencyBump],
                    paths: [try PathGlob("requirements*.txt"), try PathGlob("pyproject.toml"), try PathGlob("poetry.lock")],
                    line: 4),
                PolicyRule(id: "rules[1]", effect: .deny, classes: nil, paths: [try PathGlob("src/auth/**")], line: 7),
            ])
        #expect(policy.protected.map(\.pattern) == Policy.builtInProtectedPatterns + ["docs/legal/**"])
        #expect(policy.minConfidence == 0.9 && policy.maxRisk == 0.66)
        #expect(policy.repositoryDailyLimit == 4 && policy.classDailyLimits == [.dependencyBump: 2, .llmPatch: 0])
        #expect(policy.notifyFile == ".sentinel-notes.jsonl" && policy.webhook == "https://hooks.example/x")
        #expect(
            policy.github
                == GitHubSettings(
                    repository: "acme/shop", api: "https://ghe.example/api/v3", tokenEnv: "SHOP_TOKEN",
                    labels: ["sentinel", "security"], base: "develop"))
    }

    @Test func jsonIsAcceptedToo() throws {
        let policy = try Self.parse(#"{"level": "proposer", "rules": [{"id": "r", "ask": "*"}], "actor": {"maxRisk": 0.5}}"#)
        #expect(policy.level == .proposer && policy.maxRisk == 0.5)
        #expect(policy.rules.map(\.id) == ["r"] && policy.rules[0].classes == nil)
    }

    @Test(arguments: [("low", 0.33), ("medium", 0.66), ("high", 1.0), ("0", 0.0), ("0.5", 0.5), ("1", 1.0)])
    func maxRiskIsALevelOrANumber(text: String, value: Double) throws {
        #expect(try Self.parse("actor: {maxRisk: \(text)}").maxRisk == value)
    }

    @Test func githubDefaultsApplyAndNoRepositoryMeansNoPublisher() throws {
        #expect(try Self.parse("github: {repository: a/b}").github == GitHubSettings(repository: "a/b"))
        #expect(GitHubSettings(repository: "a/b").api == "https://api.github.com")
        #expect(GitHubSettings(repository: "a/b").tokenEnv == "GITHUB_TOKEN")
        #expect(GitHubSettings(repository: "a/b").labels == ["sentinel"])
        #expect(try Self.parse("github: {labels: [x]}").github == nil)
    }

    @Test func rulesWithoutIdsOrPathsGetTheirDefaults() throws {
        let policy = try Self.parse("rules:\n  - allow: rule-fix\n  - id: named\n    ask: llm-patch\n")
        #expect(policy.rules.map(\.id) == ["rules[0]", "named"])
        #expect(policy.rules.map(\.line) == [2, 3])
        #expect(policy.rules.allSatisfy { $0.paths.map(\.pattern) == ["**"] })
    }

    // MARK: - Precedence

    @Test(arguments: [
        [RuleEffect.deny, .ask], [.ask, .allow], [.deny, .allow], [.deny, .ask, .allow], [.allow, .allow],
    ])
    func theStrongestEffectWinsInEveryOrderOfRules(effects: [RuleEffect]) throws {
        let strongest = effects.max()!
        for order in Self.permutations(Array(effects.enumerated())) {
            let rules = order.map { index, effect in "  - id: \(effect.rawValue)\(index)\n    \(effect.rawValue): rule-fix\n" }
            let policy = try Self.parse("rules:\n" + rules.joined())
            let verdict = policy.evaluate(.ruleFix, paths: ["app/views.py"], ecosystem: nil)
            #expect(verdict.effect == strongest)
            let deciders = effects.enumerated().filter { $0.element == strongest }.map { "\($0.element.rawValue)\($0.offset)" }
            #expect(verdict.rule == deciders.sorted().joined(separator: ", "))
        }
    }

    /// A realistic file: every ordering of its rules gives the same decision on every query.
    @Test func theOrderOfRulesNeverChangesAVerdict() throws {
        let rules = [
            "  - id: bumps\n    allow: dependency-bump\n    paths: [\"requirements*.txt\", poetry.lock]\n",
            "  - id: fixes\n    allow: [rule-fix, logic-repair]\n    paths: [\"src/**\"]\n",
            "  - id: auth\n    deny: \"*\"\n    paths: [\"src/auth/**\"]\n",
            "  - id: models\n    ask: llm-patch\n",
            "  - id: tests\n    ask: \"*\"\n    paths: [\"tests/**\", \"src/**/test_*.py\"]\n",
        ]
        let queries: [(ActionClass, [String])] = [
            (.dependencyBump, ["requirements.txt", "poetry.lock"]),
            (.dependencyBump, ["requirements.txt", "src/app.py"]),
            (.ruleFix, ["src/app.py", "src/util/test_x.py"]),
            (.ruleFix, ["src/auth/login.py", "src/app.py"]),
            (.llmPatch, ["src/app.py"]),
            (.logicRepair, ["src/app.py", ".github/workflows/ci.yml"]),
            (.llmPatch, ["docs/readme.md"]),
        ]
        let reference = try Self.parse("rules:\n" + rules.joined())
        let expected = queries.map { Decision(reference.evaluate($0.0, paths: $0.1, ecosystem: "PyPI")) }
        #expect(expected.map(\.effect) == [.allow, .ask, .ask, .deny, .ask, .deny, .ask])
        for order in Self.permutations(rules) {
            let policy = try Self.parse("rules:\n" + order.joined())
            #expect(queries.map { Decision(policy.evaluate($0.0, paths: $0.1, ecosystem: "PyPI")) } == expected)
        }
    }

    // MARK: - Classes and paths

    @Test func aWildcardCoversEveryClassAndAListOnlyItsOwn() throws {
        let policy = try Self.parse(
            """
            rules:
              - {id: all, ask: "*", paths: ["lib/**"]}
              - {id: two, allow: [rule-fix, logic-repair], paths: ["app/**"]}
              - {id: one, allow: llm-patch, paths: ["app/**"]}
            """)
        for action in ActionClass.allCases {
            #expect(policy.evaluate(action, paths: ["lib/x.py"], ecosystem: nil).rule == "all")
        }
        #expect(policy.evaluate(.ruleFix, paths: ["app/x.py"], ecosystem: nil).rule == "two")
        #expect(policy.evaluate(.logicRepair, paths: ["app/x.py"], ecosystem: nil).rule == "two")
        #expect(policy.evaluate(.llmPatch, paths: ["app/x.py"], ecosystem: nil).rule == "one")
        let bump = policy.evaluate(.dependencyBump, paths: ["app/x.py"], ecosystem: nil)
        #expect(bump.effect == .ask && bump.rule == "uncovered: app/x.py")
    }

    @Test func aRuleWithoutPathsCoversEveryPathButNotProtectedOnes() throws {
        let policy = try Self.parse("rules:\n  - {id: fixes, allow: rule-fix}\n")
        let verdict = policy.evaluate(.ruleFix, paths: ["a.py", "deep/in/tree/b.py"], ecosystem: nil)
        #expect(verdict.effect == .allow && verdict.rule == "fixes")
        #expect(policy.evaluate(.ruleFix, paths: [".github/workflows/ci.yml"], ecosystem: nil).effect == .deny)
    }

    @Test(arguments: [
        (".sentinel/policy.yml", ".sentinel/**"), (".sentinel/STOP", ".sentinel/**"),
        (".github/workflows/ci.yml", ".github/**"), (".git/config", ".git/**"), ("certs/server.pem", "**/*.pem"),
        ("deploy/prod.key", "**/*.key"), ("home/.ssh/id_rsa", "**/id_rsa*"), (".gitlab-ci.yml", ".gitlab-ci.yml"),
        (".gitlab/ci/build.yml", ".gitlab/**"), (".circleci/config.yml", ".circleci/**"), (".travis.yml", ".travis.yml"),
        ("Jenkinsfile", "Jenkinsfile"), ("azure-pipelines.yml", "azure-pipelines.yml"),
        ("bitbucket-pipelines.yml", "bitbucket-pipelines.yml"), (".buildkite/pipeline.yml", ".buildkite/**"),
        ("package-lock.json", "package-lock.json"), ("web/yarn.lock", "yarn.lock"), ("Cargo.lock", "Cargo.lock"),
    ])
    func builtInProtectedPathsAreDeniedEvenWhenEverythingIsAllowed(path: String, pattern: String) throws {
        let policy = try Self.parse("rules:\n  - {id: everything, allow: \"*\"}\n")
        let verdict = policy.evaluate(.dependencyBump, paths: ["requirements.txt", path], ecosystem: "PyPI")
        #expect(verdict.effect == .deny)
        #expect(verdict.rule == "protected: \(pattern)")
        #expect(verdict.protectedPaths == [path])
        #expect(verdict.reasons[1] == "\(path) is denied: protected by '\(pattern)', never changed automatically")
    }

    @Test func lockfilesAreProtectedUnlessTheyBelongToTheCandidatesEcosystem() throws {
        let policy = try Self.parse("rules:\n  - {id: everything, allow: \"*\"}\n")
        #expect(policy.evaluate(.dependencyBump, paths: ["poetry.lock"], ecosystem: "PyPI").effect == .allow)
        #expect(policy.evaluate(.dependencyBump, paths: ["sub/uv.lock"], ecosystem: "pypi").effect == .allow)
        #expect(policy.evaluate(.dependencyBump, paths: ["package-lock.json"], ecosystem: "PyPI").effect == .deny)
        #expect(policy.evaluate(.dependencyBump, paths: ["package-lock.json"], ecosystem: "npm").effect == .allow)
        #expect(policy.evaluate(.dependencyBump, paths: ["poetry.lock"], ecosystem: "npm").effect == .deny)
        // Without an ecosystem (or an unknown one) every lockfile is protected.
        #expect(policy.evaluate(.ruleFix, paths: ["poetry.lock"], ecosystem: nil).rule == "protected: poetry.lock")
        #expect(policy.evaluate(.ruleFix, paths: ["go.sum"], ecosystem: "Hex").effect == .deny)
        let allNames = Policy.lockfiles.values.joined().sorted()
        #expect(Policy.protectedLockfiles(for: nil).map(\.pattern) == allNames)
        #expect(!Policy.protectedLockfiles(for: "PyPI").map(\.pattern).contains("poetry.lock"))
    }

    @Test func theFilesProtectedPathsAddToTheBuiltIns() throws {
        let policy = try Self.parse("protected: [\"docs/legal/**\"]\nrules:\n  - {id: everything, allow: \"*\"}\n")
        #expect(policy.evaluate(.ruleFix, paths: ["docs/legal/terms.md"], ecosystem: nil).rule == "protected: docs/legal/**")
        #expect(policy.evaluate(.ruleFix, paths: [".github/CODEOWNERS"], ecosystem: nil).effect == .deny)
        #expect(policy.evaluate(.ruleFix, paths: ["docs/guide.md"], ecosystem: nil).effect == .allow)
    }

    // MARK: - Verdicts over several paths

    @Test func aPathNoRuleCoversNeedsApprovalAndIsListed() throws {
        let policy = try Self.parse("rules:\n  - {id: bumps, allow: dependency-bump, paths: [\"requirements*.txt\"]}\n")
        let verdict = policy.evaluate(.dependencyBump, paths: ["requirements.txt", "setup.cfg"], ecosystem: "PyPI")
        #expect(verdict.effect == .ask)
        #expect(verdict.rule == "uncovered: setup.cfg")
        #expect(verdict.uncoveredPaths == ["setup.cfg"] && verdict.protectedPaths.isEmpty)
        #expect(
            verdict.reasons == [
                "requirements.txt is allowed by rule 'bumps' (line 2)",
                "setup.cfg needs approval: no rule covers dependency-bump on it",
            ])
    }

    @Test func theStrongestPathDecidesAndEveryPathHasAReason() throws {
        let policy = try Self.parse(
            """
            rules:
              - id: fixes
                allow: rule-fix
                paths: ["src/**"]
              - id: review
                ask: rule-fix
                paths: ["src/payments/**"]
              - id: auth
                deny: "*"
                paths: ["src/auth/**"]
            """)
        let verdict = policy.evaluate(
            .ruleFix, paths: ["src/app.py", "src/payments/card.py", "src/auth/login.py"], ecosystem: nil)
        #expect(verdict.effect == .deny && verdict.rule == "auth")
        #expect(
            verdict.reasons == [
                "src/app.py is allowed by rule 'fixes' (line 2)",
                "src/payments/card.py needs approval by rule 'review' (line 5)",
                "src/auth/login.py is denied by rule 'auth' (line 8)",
            ])
        let ask = policy.evaluate(.ruleFix, paths: ["src/app.py", "src/payments/card.py"], ecosystem: nil)
        #expect(ask.effect == .ask && ask.rule == "review")
    }

    @Test func anAllowVerdictNamesEveryRuleThatAllowed() throws {
        let policy = try Self.parse(
            "rules:\n  - {id: z-src, allow: rule-fix, paths: [\"src/**\"]}\n  - {id: a-lib, allow: rule-fix, paths: [\"lib/**\"]}\n"
        )
        let verdict = policy.evaluate(.ruleFix, paths: ["src/a.py", "lib/b.py", "src/c.py"], ecosystem: nil)
        #expect(verdict.effect == .allow && verdict.rule == "a-lib, z-src")
        #expect(verdict.uncoveredPaths.isEmpty && verdict.protectedPaths.isEmpty)
    }

    @Test(arguments: ["../outside.py", "src/../../etc/passwd", "", "/"])
    func aPathLeavingTheRepositoryIsDenied(path: String) throws {
        let policy = try Self.parse("rules:\n  - {id: everything, allow: \"*\"}\n")
        let verdict = policy.evaluate(.ruleFix, paths: ["a.py", path], ecosystem: nil)
        #expect(verdict.effect == .deny && verdict.rule == "invalid path: \(path)")
    }

    @Test func aChangeWithoutPathsNeedsApproval() {
        let verdict = Policy.default.evaluate(.ruleFix, paths: [], ecosystem: nil)
        #expect(verdict.effect == .ask && verdict.rule == "no paths")
    }

    @Test func pathsAreMatchedAfterDroppingDotSlash() throws {
        let policy = try Self.parse("rules:\n  - {id: fixes, allow: rule-fix, paths: [\"src/**\"]}\n")
        #expect(policy.evaluate(.ruleFix, paths: ["./src/a.py"], ecosystem: nil).effect == .allow)
        // `./.github/...` is still the protected directory.
        #expect(policy.evaluate(.ruleFix, paths: ["./.github/x.yml", "src/./a.py"], ecosystem: nil).effect == .deny)
    }

    @Test func effectsAreOrderedAllowAskDeny() {
        #expect(RuleEffect.allow < .ask && RuleEffect.ask < .deny)
        #expect([RuleEffect.deny, .allow, .ask].sorted() == [.allow, .ask, .deny])
    }

    @Test func verdictsRoundTripThroughJSON() throws {
        let verdict = Policy.default.evaluate(.ruleFix, paths: ["a.py", ".git/HEAD"], ecosystem: nil)
        let data = try JSONEncoder().encode(verdict)
        #expect(try JSONDecoder().decode(PolicyVerdict.self, from: data) == verdict)
    }
}

/// Every malformed file is one `FILE:LINE: KEY: problem` error (exit status 2).
@Suite struct PolicyFileErrorTests {
    struct Bad: Sendable, CustomTestStringConvertible {
        let text: String
        let line: Int
        let key: String
        let problem: String
        var testDescription: String { "\(key): \(problem)" }
    }

    @Test(arguments: [
        Bad(text: "level: observer\ncolour: red\n", line: 2, key: "colour", problem: "unknown key 'colour'"),
        Bad(text: "rules:\n  - allow: rule-fix\n    path: [x]\n", line: 3, key: "rules[0].path", problem: "unknown key"),
        Bad(text: "actor: {minConfidence: 1, speed: 2}\n", line: 1, key: "actor.speed", problem: "unknown key"),
        Bad(text: "version: 2\n", line: 1, key: "version", problem: "'2' is not supported (only 1)"),
        Bad(text: "level: boss\n", line: 1, key: "level", problem: "'boss' is not one of observer, proposer, actor"),
        Bad(text: "level: [actor]\n", line: 1, key: "level", problem: "must be a string"),
        Bad(text: "rules: allow\n", line: 1, key: "rules", problem: "must be a list"),
        Bad(text: "rules:\n  - allow\n", line: 2, key: "rules[0]", problem: "must be a mapping"),
        Bad(
            text: "rules:\n  - allow: [dependency-bump, typo-fix]\n", line: 2, key: "rules[0].allow",
            problem: "'typo-fix' is not an action class (dependency-bump, rule-fix, logic-repair, llm-patch)"),
        Bad(text: "rules:\n  - allow: []\n", line: 2, key: "rules[0].allow", problem: "at least one action class"),
        Bad(text: "rules:\n  - allow: {a: b}\n", line: 2, key: "rules[0].allow", problem: "must be an action class"),
        Bad(text: "rules:\n  - allow: [\"*\", rule-fix]\n", line: 2, key: "rules[0].allow", problem: "'*' stands alone"),
        Bad(text: "rules:\n  - id: x\n    paths: [a]\n", line: 2, key: "rules[0]", problem: "needs one of allow, ask, deny"),
        Bad(
            text: "rules:\n  - allow: rule-fix\n    deny: rule-fix\n", line: 3, key: "rules[0]",
            problem: "has both allow and deny"),
        // Keys written twice: the line is the mapping's, as the YAML reader gives no better.
        Bad(
            text: "rules:\n  - allow: rule-fix\n    allow: llm-patch\n", line: 2, key: "allow",
            problem: "not valid YAML or JSON: expected all keys to be unique"),
        Bad(
            text: "rules:\n  - {id: a, allow: rule-fix}\n  - {id: a, deny: rule-fix}\n", line: 3, key: "rules[1].id",
            problem: "duplicate rule id 'a' (first on line 2)"),
        Bad(text: "rules:\n  - {id: \"a b\", allow: rule-fix}\n", line: 2, key: "rules[0].id", problem: "may hold only"),
        Bad(text: "rules:\n  - allow: rule-fix\n    paths: []\n", line: 3, key: "rules[0].paths", problem: "at least one glob"),
        Bad(
            text: "rules:\n  - allow: rule-fix\n    paths:\n      - src/**\n      - \"src/[a\"\n", line: 5,
            key: "rules[0].paths[1]", problem: "glob 'src/[a': unclosed '['"),
        Bad(text: "protected: [\"../x\"]\n", line: 1, key: "protected[0]", problem: "'..' segments are not allowed"),
        Bad(text: "protected: docs\n", line: 1, key: "protected", problem: "must be a list"),
        Bad(text: "actor:\n  minConfidence: 1.5\n", line: 2, key: "actor.minConfidence", problem: "1.5 is not in [0, 1]"),
        Bad(text: "actor:\n  minConfidence: high\n", line: 2, key: "actor.minConfidence", problem: "not a number"),
        Bad(text: "actor:\n  minConfidence: nan\n", line: 2, key: "actor.minConfidence", problem: "not in [0, 1]"),
        Bad(text: "actor:\n  maxRisk: extreme\n", line: 2, key: "actor.maxRisk", problem: "not one of low, medium, high"),
        Bad(text: "actor:\n  maxRisk: -0.1\n", line: 2, key: "actor.maxRisk", problem: "-0.1 is not in [0, 1]"),
        Bad(text: "actor: 3\n", line: 1, key: "actor", problem: "must be a mapping"),
        Bad(text: "limits:\n  repository: -1\n", line: 2, key: "limits.repository", problem: "-1 is below 0"),
        Bad(text: "limits:\n  repository: ten\n", line: 2, key: "limits.repository", problem: "must be an integer"),
        Bad(
            text: "limits:\n  classes:\n    dependency-bmup: 3\n", line: 3, key: "limits.classes.dependency-bmup",
            problem: "is not an action class (dependency-bump"),
        Bad(text: "limits:\n  classes:\n    rule-fix: 2.5\n", line: 3, key: "limits.classes.rule-fix", problem: "integer"),
        Bad(text: "notify:\n  webhook: ftp://hooks.example/x\n", line: 2, key: "notify.webhook", problem: "not an http(s) URL"),
        Bad(text: "notify:\n  webhook: hooks.example\n", line: 2, key: "notify.webhook", problem: "not an http(s) URL"),
        Bad(text: "notify:\n  file: \"\"\n", line: 2, key: "notify.file", problem: "must be a non-empty string"),
        Bad(text: "github:\n  repository: shop\n", line: 2, key: "github.repository", problem: "'shop' is not owner/name"),
        Bad(text: "github:\n  repository: a/b/c\n", line: 2, key: "github.repository", problem: "is not owner/name"),
        Bad(text: "github:\n  repository: -a/b\n", line: 2, key: "github.repository", problem: "is not owner/name"),
        Bad(text: "github:\n  repository: a/..\n", line: 2, key: "github.repository", problem: "is not owner/name"),
        Bad(text: "github:\n  api: file:///etc\n", line: 2, key: "github.api", problem: "not an http(s) URL"),
        Bad(text: "github:\n  tokenEnv: 1TOKEN\n", line: 2, key: "github.tokenEnv", problem: "not an environment variable"),
        Bad(text: "github:\n  base: --force\n", line: 2, key: "github.base", problem: "not a branch name"),
        Bad(text: "level: observer\nlevel: actor\n", line: 1, key: "level", problem: "duplicated key(s): 'level'"),
    ])
    func malformedFilesNameTheFileTheLineAndTheKey(_ bad: Bad) {
        do {
            _ = try Policy.parse(bad.text, file: ".sentinel/policy.yml")
            Issue.record("accepted:\n\(bad.text)")
        } catch let error as SentinelError {
            #expect(error.code == .invalidInput && error.exitStatus == 2)
            let prefix = ".sentinel/policy.yml:\(bad.line): "
            #expect(error.message.hasPrefix(prefix), "\(error.message)")
            let rest = error.message.dropFirst(prefix.count)
            // Unknown keys quote the full key; every other problem starts with it.
            #expect(rest.hasPrefix("\(bad.key): ") || rest.contains("'\(bad.key)'"), "\(error.message)")
            #expect(error.message.contains(bad.problem), "\(error.message)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func aYAMLSyntaxErrorNamesTheFileAndLine() {
        #expect {
            try Policy.parse("level: observer\nrules: [\n  - allow: x\n", file: "p.yml")
        } throws: { error in
            guard let error = error as? SentinelError else { return false }
            return error.code == .invalidInput && error.message.hasPrefix("p.yml:")
                && error.message.contains("not valid YAML or JSON") && error.message.split(separator: ":")[1].allSatisfy(\.isNumber)
        }
    }

    @Test func aSecondDocumentIsRefused() {
        #expect(throws: SentinelError.self) { try Policy.parse("level: actor\n---\nlevel: observer\n", file: "p.yml") }
    }

    @Test func aBareStarMustBeQuotedBecauseYAMLReadsItAsAnAlias() {
        #expect {
            try Policy.parse("rules:\n  - deny: *\n", file: "p.yml")
        } throws: { error in
            (error as? SentinelError)?.message.hasPrefix("p.yml:2: ") == true
                && (error as? SentinelError)?.message.hasSuffix("(write the wildcard as \"*\")") == true
        }
    }
}

/// `Policy.load` reads the repository's file bounded and without following links.
@Suite struct PolicyLoadTests {
    @Test func loadsAFileAndHashesItsBytes() throws {
        try ScratchDirectory.with { root in
            let text = "level: proposer\n"
            try text.write(toFile: root + "/policy.yml", atomically: false, encoding: .utf8)
            let policy = try Policy.load(path: root + "/policy.yml")
            #expect(policy.level == .proposer)
            #expect(policy.file == root + "/policy.yml")
            #expect(policy.sha256 == SHA256.hex(Array(text.utf8)))
        }
    }

    @Test func theHashIsOfTheFileBytesByteOrderMarkIncluded() throws {
        try ScratchDirectory.with { root in
            let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("level: actor\n".utf8)
            try Data(bytes).write(to: URL(fileURLWithPath: root + "/bom.yml"))
            let policy = try Policy.load(path: root + "/bom.yml")
            #expect(policy.level == .actor && policy.sha256 == SHA256.hex(bytes))
        }
    }

    @Test func aMissingFileIsNotFound() throws {
        try ScratchDirectory.with { root -> Void in
            #expect(throws: SentinelError(.invalidInput, "\(root)/none.yml: not found", errno: Errno(rawValue: ENOENT))) {
                try Policy.load(path: root + "/none.yml")
            }
        }
    }

    @Test func symbolicLinksDirectoriesAndHugeFilesAreRefused() throws {
        try ScratchDirectory.with { root in
            try "level: actor\n".write(toFile: root + "/real.yml", atomically: false, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: root + "/link.yml", withDestinationPath: root + "/real.yml")
            try FileManager.default.createDirectory(atPath: root + "/dir.yml", withIntermediateDirectories: false)
            try Data(count: (1 << 20) + 1).write(to: URL(fileURLWithPath: root + "/huge.yml"))
            let cases = [("link.yml", "is a symbolic link"), ("dir.yml", "not a regular file"), ("huge.yml", "larger than")]
            for (name, problem) in cases {
                do {
                    _ = try Policy.load(path: "\(root)/\(name)")
                    Issue.record("loaded \(name)")
                } catch let error as SentinelError {
                    #expect(error.code == .invalidInput)
                    #expect(error.message.hasPrefix("\(root)/\(name): ") && error.message.contains(problem), "\(error.message)")
                }
            }
        }
    }

    @Test func aFileThatIsNotUTF8IsRefused() throws {
        try ScratchDirectory.with { root in
            try Data([0x6C, 0x65, 0x76, 0xFF, 0xFE]).write(to: URL(fileURLWithPath: root + "/bin.yml"))
            #expect(throws: SentinelError(.invalidInput, "\(root)/bin.yml: not UTF-8 text")) {
                try Policy.load(path: root + "/bin.yml")
            }
        }
    }
}
