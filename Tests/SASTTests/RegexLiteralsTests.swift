import Foundation
import PythonSyntax
import Testing
import TestSupport

@testable import SAST

/// The literal prefilter of `metavariable-regex`: what it extracts, and that it never rejects a
/// text the expression matches (checked on the shipped rules and on random expressions).
@Suite("Regex literal prefilter")
struct RegexLiteralsTests {
    /// The extracted requirement as sets of strings (order-free).
    static func needs(_ pattern: String) -> Set<Set<String>> {
        Set(RegexLiterals(pattern: pattern).required.map { Set($0.map { String(decoding: $0, as: UTF8.self) }) })
    }

    @Test(
        "every match contains one string of each extracted set",
        arguments: [
            ("^(md5|sha1|md4)$", [["md5", "sha1", "md4"]]),
            ("abc", [["abc"]]),
            // `pass|password` says no more than `pass`.
            ("(?i)^Pass(?:word)?$", [["pass"]]),
            // `ab` alone would say nothing `ababx` does not: implied sets are dropped.
            ("(?:ab){2}x", [["ababx"]]),
            ("(?:ab)+c", [["ab"], ["c"]]),
            ("\\d+px", [["px"]]),
            ("foo(?=bar)", [["foo"], ["bar"]]),
            ("^[fF][rR]?['\"]", [["f'", "f\"", "fr'", "fr\""]]),
            (
                "^[rRuUbBfF]{0,2}(?:'|\")/(?:tmp|dev/shm)(?:/[^'\"/{\\s]|\\{)",
                [["'/tmp", "\"/tmp", "'/dev/shm", "\"/dev/shm"]]
            ),
            ("[\u{202A}-\u{202C}]", [["\u{202A}", "\u{202B}", "\u{202C}"]]),
            ("\\Qa.b\\E", [["a.b"]]),
            ("a\\.b", [["a.b"]]),
            ("x\\x41y", [["xay"]]),
            // Too many spellings to list (`(?:api|auth|...)_?key`): each branch's fewest strings.
            (
                "(?i)(?:pwd|(?:api|access|auth|hmac|master|signing|private|session|license|activation|encryption|secret"
                    + "|client|user|app|jwt)_?key|(?:otp|auth|login|reset|confirm|sms|mfa|invite|recovery|backup|security"
                    + "|verify|verification|invitation|one_time|pin|access)_?code)s?$",
                [["pwd", "key", "code"]]
            ),
        ] as [(String, [[String]])])
    func extracted(pattern: String, expected: [[String]]) {
        #expect(Self.needs(pattern) == Set(expected.map(Set.init)))
    }

    @Test(
        "no requirement where a match may lack every literal, or the syntax is not read",
        arguments: [
            ".*", "a*", "a?", "(?:ab|c*)", "[a-z]+", "[^x]", "(?!abc)", "(?x) abc", "\\p{L}", "\\1", "(?<=ab)", "(a|)",
            "[[a]]", "a{,3}", "[:alpha:]", "[:^digit:]x", "[^:alpha:]",
        ])
    func nothingRequired(pattern: String) {
        #expect(RegexLiterals(pattern: pattern).required.isEmpty)
    }

    @Test("ASCII letters are compared without case; a case-insensitive expression accepts non-ASCII text")
    func caseHandling() {
        let sensitive = RegexLiterals(pattern: "token")
        #expect(sensitive.mayMatch("API_TOKEN"))
        #expect(!sensitive.mayMatch("api_key"))
        let insensitive = RegexLiterals(pattern: "(?i)token")
        #expect(!insensitive.mayMatch("api_key"))
        // ICU folds U+212A KELVIN SIGN to `k`: such a text is never rejected.
        #expect(insensitive.mayMatch("to\u{212A}en"))
        #expect(RegexLiterals(pattern: "(?i)caf\u{E9}").required.isEmpty)
    }

    /// Whether NSRegularExpression matches `text` at its start, as `MetavariableRegex` asks.
    static func icuMatches(_ regex: NSRegularExpression, _ text: String) -> Bool {
        regex.firstMatch(in: text, options: [.anchored], range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// Every `metavariable-regex` of the shipped rules, search and taint.
    static func shippedExpressions() throws -> [String] {
        var out: [String] = []
        func collect(_ formula: PatternFormula) {
            switch formula {
            case .pattern: break
            case .either(let alternatives): alternatives.forEach(collect)
            case .all(let clauses):
                for clause in clauses {
                    switch clause {
                    case .positive(let f), .not(let f), .inside(let f), .notInside(let f), .metavariableValue(_, let f):
                        collect(f)
                    case .metavariableRegex(_, let regex):
                        out.append(regex.source)
                    }
                }
            }
        }
        for rule in try RuleSet.load(directories: [RuleFilesTests.rulesDirectory]).rules {
            switch rule.mode {
            case .search(let formula): collect(formula)
            case .taint(let spec):
                for sink in spec.sinks {
                    for case .metavariableRegex(_, let regex) in sink.conditions { out.append(regex.source) }
                }
            }
        }
        return out
    }

    @Test("never rejects what a shipped rule's expression matches (rule test files' strings and names)")
    func shippedRulesSound() throws {
        let expressions = try Self.shippedExpressions()
        #expect(expressions.count > 40)
        // The texts: every line, string literal and word of the rule test files, and each
        // expression's own literals in mixed case inside quotes.
        var texts: Set<String> = []
        for file in RuleFilesTests.testFiles {
            let source = try String(contentsOfFile: RuleFilesTests.rulesDirectory + "/" + file, encoding: .utf8)
            for line in source.split(separator: "\n") {
                texts.insert(String(line).trimmingCharacters(in: .whitespaces))
                for piece in line.split(whereSeparator: { " (),=:[]{}".contains($0) }) { texts.insert(String(piece)) }
            }
        }
        var random = SeededRandom(state: 13)
        var checked = 0
        var rejected = 0
        for source in expressions {
            let regex = try NSRegularExpression(pattern: RegexGroupNames.icuSpelling(source))
            let literals = RegexLiterals(pattern: RegexGroupNames.icuSpelling(source))
            var own = texts
            for set in literals.required {
                for needle in set {
                    let word = String(decoding: needle, as: UTF8.self)
                    let mixed = String(word.map { random.next() % 2 == 0 ? Character($0.uppercased()) : $0 })
                    for text in ["\(word)", "'\(mixed)'", "\"x_\(word)_y\"", "f'select \(word) from t'", "self.\(mixed)"] {
                        own.insert(text)
                    }
                }
            }
            for text in own {
                let matches = Self.icuMatches(regex, text)
                let may = literals.mayMatch(text)
                #expect(!matches || may, "\(source) matches \(text.debugDescription) but the prefilter rejects it")
                checked += 1
                if !may { rejected += 1 }
            }
        }
        // The prefilter is worth having: it rejects most texts without running an expression.
        #expect(rejected * 2 > checked)
    }

    /// A random expression over a small alphabet, with the syntax the reader handles.
    static func randomExpression(_ random: inout SeededRandom, depth: Int = 0) -> String {
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        var out = ""
        for _ in 0..<(1 + Int(random.next() % 4)) {
            var atom: String
            switch random.next() % 12 {
            case 0 where depth < 3: atom = "(?:" + randomExpression(&random, depth: depth + 1) + ")"
            case 1 where depth < 3:
                atom = "(" + randomExpression(&random, depth: depth + 1) + "|" + randomExpression(&random, depth: depth + 1) + ")"
            case 2 where depth < 3: atom = pick(["(?=", "(?!", "(?i:", "(?-i:"]) + randomExpression(&random, depth: depth + 1) + ")"
            case 3: atom = pick(["[ab]", "[^a]", "[a-c]", "[aB-]", ".", "\\w", "\\s"])
            case 4: atom = pick(["^", "$", "\\b", "(?i)"])
            case 5: atom = pick(["\\.", "\\x61", "\\Qab\\E"])
            default: atom = pick(["a", "b", "A", "B", "c", "-", "."])
            }
            if random.next() % 3 == 0, !["^", "$", "\\b", "(?i)"].contains(atom) {
                atom += pick(["*", "+", "?", "{2}", "{1,2}", "{0,2}", "+?", "*+"])
            }
            out += atom
        }
        return out
    }

    @Test("never rejects a text a random expression matches")
    func randomExpressionsSound() throws {
        var random = SeededRandom(state: 2026)
        let alphabet = Array("abcAB-. ")
        var rejected = 0
        for _ in 0..<400 {
            let source = Self.randomExpression(&random)
            guard let regex = try? NSRegularExpression(pattern: source) else { continue }
            let literals = RegexLiterals(pattern: source)
            for _ in 0..<150 {
                let length = Int(random.next() % 9)
                let text = String((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
                let may = literals.mayMatch(text)
                #expect(!Self.icuMatches(regex, text) || may, "\(source) matches \(text.debugDescription)")
                if !may { rejected += 1 }
            }
        }
        #expect(rejected > 1000)
    }

    @Test("a rule's requirement on the file comes only from metavariables bound to code")
    func fileRequirement() throws {
        func formula(_ yaml: String) throws -> PatternFormula {
            let rule = try RuleLoader.parse(yaml, file: "t.yaml")
            guard case .search(let formula) = rule.mode else { throw CancellationError() }
            return formula
        }
        let strings = try formula(
            """
            id: t.tmp
            message: m
            severity: low
            languages: [python]
            patterns:
              - pattern-either:
                  - pattern: $F("$S", ...)
                  - pattern: $X = "$S"
              - metavariable-regex:
                  metavariable: $S
                  regex: ^['"]/tmp/
            """)
        #expect(strings.textRequirement.map { Set($0.required.flatMap { $0 }) } == [Array("'/tmp/".utf8), Array("\"/tmp/".utf8)])
        // `$F` of `os.$F(...)` binds an identifier, which may be spelled through an import alias.
        let identifiers = try formula(
            """
            id: t.exec
            message: m
            severity: low
            languages: [python]
            patterns:
              - pattern: os.$F(...)
              - metavariable-regex:
                  metavariable: $F
                  regex: ^exec
            """)
        #expect(identifiers.textRequirement == nil)
        let lowered = LowercasedText(Array("x = open('/TMP/a')".utf8))
        #expect(lowered.mayContain(try #require(strings.textRequirement)))
        #expect(!LowercasedText(Array("x = open('/var/a')".utf8)).mayContain(try #require(strings.textRequirement)))
    }
}
