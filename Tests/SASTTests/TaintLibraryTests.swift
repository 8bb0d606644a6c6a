import Documents
import DocumentsYAML
import Foundation
import Support
import Testing

@testable import SAST

/// Source and sanitizer sets (`set:` files) included by taint rules, and models from a config.
@Suite("Taint library and models")
struct TaintLibraryTests {
    static let sources = "set: web\nsources:\n  - pattern-either:\n      - pattern: request.args\n      - pattern: request.form\n"
    static let local = "set: env\nsources:\n  - kind: local\n    pattern: os.getenv(...)\n"
    static let casts = "set: casts\nsanitizers:\n  - pattern: int(...)\n"
    static let rule = """
        id: python.t
        mode: taint
        message: m
        severity: high
        cwe: [78]
        sources:
          - include: web
        sinks:
          - pattern: os.system($C)
            focus: $C
        sanitizers:
          - include: casts

        """

    /// A directory holding `files` (name → text), removed after `body`.
    func withRules<T>(_ files: [String: String], _ body: (String) throws -> T) throws -> T {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("taint-library-\(UUID().uuidString)")
        for sub in ["sets", "own"] {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return try body(dir.path)
    }

    func loadError(_ files: [String: String]) throws -> String? {
        try withRules(files) { dir in
            do {
                _ = try RuleSet.load(directories: [dir])
                return nil
            } catch let error as SentinelError {
                return error.message
            }
        }
    }

    @Test("a rule takes the sources and sanitizers of the sets it includes")
    func includes() throws {
        let rules = try withRules(["sets/web.yaml": Self.sources, "sets/casts.yaml": Self.casts, "t.yaml": Self.rule]) {
            try RuleSet.load(directories: [$0])
        }
        let rule = try #require(rules.rules.first)
        guard case .taint(let spec) = rule.mode else { throw CancellationError() }
        #expect(spec.sources.map(\.pattern.source) == ["request.args", "request.form"])
        #expect(spec.sanitizers.map(\.source) == ["int(...)"])
        #expect(spec.sourceSets == ["web"])
        #expect(rules.rules.count == 1, "a set file is not a rule")
        let found = SASTEngine(rules: rules).scan(
            file: "a.py", source: "import os\nos.system(request.args['x'])\nos.system(int(request.form['n']))\n")
        #expect(found.findings.compactMap(\.location.startLine) == [2])
    }

    @Test("a rule directory loaded alone may include the sets of another (setsFrom), whose rules stay out")
    func setsFromAnotherDirectory() throws {
        let files = [
            "sets/web.yaml": Self.sources, "sets/casts.yaml": Self.casts,
            "sets/other.yaml": Self.rule.replacingOccurrences(of: "python.t", with: "python.other"), "own/t.yaml": Self.rule,
        ]
        let rules = try withRules(files) { dir in try RuleSet.load(directories: [dir + "/own"], setsFrom: [dir + "/sets"]) }
        #expect(rules.rules.map(\.id) == ["python.t"])
        // The same directory as a rule directory and a set directory is read once.
        let same = try withRules(files) { dir in try RuleSet.load(directories: [dir + "/sets"], setsFrom: [dir + "/sets/"]) }
        #expect(same.rules.map(\.id) == ["python.other"])
    }

    @Test("except leaves out a source of the set, by its pattern as written")
    func except() throws {
        let rule = Self.rule.replacingOccurrences(of: "  - include: web\n", with: "  - include: web\n    except: [request.form]\n")
        let rules = try withRules(["sets/web.yaml": Self.sources, "sets/casts.yaml": Self.casts, "t.yaml": rule]) {
            try RuleSet.load(directories: [$0])
        }
        guard case .taint(let spec) = rules.rules[0].mode else { throw CancellationError() }
        #expect(spec.sources.map(\.pattern.source) == ["request.args"])
    }

    @Test("an unknown set, a pattern except does not find, a duplicate set: one-line errors naming the file")
    func errors() throws {
        let unknown = try loadError(["sets/casts.yaml": Self.casts, "t.yaml": Self.rule])
        #expect(unknown?.contains("t.yaml:7: 'sources[0].include': no source set 'web' (known sets: casts)") == true, "\(unknown ?? "")")
        let wrongKind = try loadError([
            "sets/web.yaml": Self.sources.replacingOccurrences(of: "set: web", with: "set: casts"), "t.yaml": Self.rule,
        ])
        #expect(wrongKind?.contains("no source set 'web'") == true || wrongKind?.contains("no sanitizer set 'casts'") == true)
        let except = Self.rule.replacingOccurrences(of: "  - include: web\n", with: "  - include: web\n    except: [request.body]\n")
        let badExcept = try loadError(["sets/web.yaml": Self.sources, "sets/casts.yaml": Self.casts, "t.yaml": except])
        #expect(badExcept?.contains("'sources[0].except': set 'web' has no pattern 'request.body'") == true, "\(badExcept ?? "")")
        let duplicate = try loadError(["sets/web.yaml": Self.sources, "sets/web2.yaml": Self.sources])
        #expect(duplicate?.contains("duplicate set 'web'") == true)
        let both = try loadError(["sets/web.yaml": Self.sources + "sanitizers:\n  - pattern: int(...)\n"])
        #expect(both?.contains("a set needs exactly one of 'sources' and 'sanitizers'") == true)
        #expect(throws: SentinelError.self) { try RuleLoader.parseAny(Self.sources, file: "web.yaml") }
    }

    static let config = """
        sources:
          - pattern: myapp.params.get_param(...)
            set: web
        sanitizers:
          - pattern: myapp.safety.clean(...)
            rules: [python.t]
        sinks:
          - pattern: myapp.shell.run($CMD)
            focus: $CMD
            rules: [python.t]

        """

    func models(_ text: String) throws -> TaintModels {
        let node = try #require(try YAML.documents(Array(text.utf8), file: "cfg.yml", scalars: .strings).first)
        return try TaintModels.parse(node, file: "cfg.yml")
    }

    @Test("models add a source to the rules that include its set, and sanitizers and sinks to the rules named")
    func appliedModels() throws {
        let loaded = try withRules(["sets/web.yaml": Self.sources, "sets/casts.yaml": Self.casts, "t.yaml": Self.rule]) {
            try RuleSet.load(directories: [$0])
        }
        let engine = SASTEngine(rules: try loaded.applying(try models(Self.config)))
        let code = """
            import os
            import myapp
            os.system(myapp.params.get_param("x"))
            myapp.shell.run(request.args["c"])
            os.system(myapp.safety.clean(request.args["c"]))

            """
        #expect(engine.scan(file: "a.py", source: code).findings.compactMap(\.location.startLine) == [3, 4])
    }

    @Test("bad models: one-line errors naming the file, the line and the key")
    func badModels() throws {
        let loaded = try withRules(["sets/web.yaml": Self.sources, "sets/casts.yaml": Self.casts, "t.yaml": Self.rule]) {
            try RuleSet.load(directories: [$0])
        }
        func message(_ text: String, apply: Bool = false) -> String {
            do {
                let parsed = try models(text)
                if apply { _ = try loaded.applying(parsed) }
                return ""
            } catch let error as SentinelError {
                return error.message
            } catch {
                return "\(error)"
            }
        }
        #expect(
            message("sinks:\n  - pattern: f($X)\n") == "cfg.yml:2: models.sinks[0]: needs 'rules' (the taint rules the sink belongs to)")
        #expect(message("sinks:\n  - pattern: f($X)\n    rule: [x]\n") == "cfg.yml:3: unknown key 'models.sinks[0].rule'")
        #expect(
            message("sources:\n  - pattern: 'f(('\n    set: web\n").hasPrefix(
                "cfg.yml:2: 'models.sources[0].pattern': pattern 'f((' does not parse"))
        #expect(
            message("sources:\n  - pattern: f()\n    set: nope\n", apply: true)
                == "cfg.yml:2: models.sources[0].set: no source set 'nope' (known: web)")
        #expect(
            message("sanitizers:\n  - pattern: f()\n    rules: [python.nope]\n", apply: true)
                == "cfg.yml:2: models.sanitizers[0].rules: no taint rule 'python.nope'")
        #expect(!message("sinks: {}\n").isEmpty)
    }
}
