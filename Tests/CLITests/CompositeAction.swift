import Foundation
import TestSupport
import Testing

/// A composite action (`runs.using: composite`) as GitHub runs one: its inputs' defaults under
/// `with:`, each step's `if:`, `${{ inputs.* }}` and `${{ steps.ID.outputs.* }}` in `env:` and
/// `with:`, step outputs from `$GITHUB_OUTPUT`, `uses:` steps performed by the runner. Only the
/// expressions this repository's action.yml uses are known; any other fails the test.
struct CompositeAction {
    struct Step {
        var id: String?
        var run: String?
        var uses: String?
        var condition: String?
        var with: [String: String]
        var env: [String: String]
    }

    var inputs: [String: String]
    var steps: [Step]

    static func load(_ path: String) throws -> CompositeAction {
        let script = """
            import json, sys, yaml
            doc = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
            assert doc["runs"]["using"] == "composite", "not a composite action"
            def strings(d): return {str(k): str(v) for k, v in (d or {}).items()}
            print(json.dumps({
                "inputs": {k: str(v.get("default", "")) for k, v in (doc.get("inputs") or {}).items()},
                "steps": [{"id": s.get("id"), "run": s.get("run"), "uses": s.get("uses"), "if": s.get("if"),
                           "shell": s.get("shell"), "with": strings(s.get("with")), "env": strings(s.get("env"))}
                          for s in doc["runs"]["steps"]]}))
            """
        let parsed = try CLI.runProgram("/usr/bin/python3", ["-c", script, path])
        guard parsed.status == 0, let data = parsed.stdout.data(using: .utf8),
            let doc = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw RecipeError("\(path): action not read: \(parsed.stderr)") }
        let steps = (doc["steps"] as? [[String: Any]] ?? []).map { step in
            Step(
                id: step["id"] as? String, run: step["run"] as? String, uses: step["uses"] as? String,
                condition: step["if"] as? String, with: step["with"] as? [String: String] ?? [:],
                env: step["env"] as? [String: String] ?? [:])
        }
        for step in (doc["steps"] as? [[String: Any]] ?? []) where step["run"] is String && step["shell"] as? String != "bash" {
            throw RecipeError("\(path): a run step of a composite action needs `shell: bash`")
        }
        return CompositeAction(inputs: doc["inputs"] as? [String: String] ?? [:], steps: steps)
    }

    /// Runs the steps on `runner`'s workspace with the caller's `with:` over the inputs' defaults.
    func run(on runner: Runner, with given: [String: String], environment: [String: String]) throws -> [Runner.Exit] {
        // A default may name the event (`${{ github.event.pull_request.base.sha }}`): the runner's values.
        var inputs = try self.inputs.mapValues { $0.contains("${{") ? try runner.substitute($0) : $0 }
        for (key, value) in given {
            guard inputs[key] != nil else { throw RecipeError("the action has no input \(key)") }
            inputs[key] = value
        }
        var outputs: [String: [String: String]] = [:]
        var exits: [Runner.Exit] = []
        var failed = false
        for step in steps {
            guard try Self.evaluate(step.condition, failed: failed, inputs: inputs, outputs: outputs, runner: runner) else { continue }
            let expand = { (text: String) throws -> String in try Self.expand(text, inputs: inputs, outputs: outputs) }
            if let run = step.run {
                let outputFile = runner.runnerTemp + "/github-output-\(UUID().uuidString)"
                FileManager.default.createFile(atPath: outputFile, contents: nil)
                var variables = environment
                variables["GITHUB_OUTPUT"] = outputFile
                for (key, value) in step.env { variables[key] = try expand(value) }
                let exit = try runner.shell(run, environment: variables)
                exits.append(exit)
                if exit.status != 0 { failed = true }
                if let id = step.id {
                    let text = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
                    for line in text.split(separator: "\n") {
                        let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                        if parts.count == 2 { outputs[id, default: [:]][parts[0]] = parts[1] }
                    }
                }
            } else if let uses = step.uses {
                try runner.perform(uses, with: try step.with.mapValues(expand))
            }
        }
        return exits
    }

    /// `${{ inputs.NAME }}` and `${{ steps.ID.outputs.NAME }}` in `text`.
    static func expand(_ text: String, inputs: [String: String], outputs: [String: [String: String]]) throws -> String {
        var result = text
        while let open = result.range(of: "${{"), let close = result.range(of: "}}", range: open.upperBound..<result.endIndex) {
            let expression = result[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            result.replaceSubrange(open.lowerBound..<close.upperBound, with: try value(of: expression, inputs: inputs, outputs: outputs))
        }
        return result
    }

    static func value(of expression: String, inputs: [String: String], outputs: [String: [String: String]]) throws -> String {
        let parts = expression.split(separator: ".").map(String.init)
        if parts.count == 2, parts[0] == "inputs", let value = inputs[parts[1]] { return value }
        if parts.count == 4, parts[0] == "steps", parts[2] == "outputs" { return outputs[parts[1]]?[parts[3]] ?? "" }
        throw RecipeError("the test does not know the expression \(expression)")
    }

    /// `A && B && ...` of `always()`, `hashFiles('F') != ''`, `X != ''` and `X == 'v'`; no `if:` is `success()`.
    static func evaluate(
        _ condition: String?, failed: Bool, inputs: [String: String], outputs: [String: [String: String]], runner: Runner
    ) throws -> Bool {
        guard let condition else { return !failed }
        var always = false
        var holds = true
        for term in condition.components(separatedBy: " && ").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if term == "always()" {
                always = true
            } else if term.hasPrefix("hashFiles('"), term.hasSuffix("') != ''") {
                let file = term.dropFirst("hashFiles('".count).dropLast("') != ''".count)
                holds = holds && FileManager.default.fileExists(atPath: runner.workspace + "/" + file)
            } else if term.hasSuffix(" != ''") {
                let left = try value(of: String(term.dropLast(" != ''".count)), inputs: inputs, outputs: outputs)
                holds = holds && left != ""
            } else if let range = term.range(of: " == '"), term.hasSuffix("'") {
                let left = try value(of: String(term[..<range.lowerBound]), inputs: inputs, outputs: outputs)
                holds = holds && left == String(term[range.upperBound...].dropLast())
            } else {
                throw RecipeError("the test does not know the condition \(term)")
            }
        }
        return holds && (always || !failed)
    }
}
