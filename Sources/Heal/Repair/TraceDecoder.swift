import Documents
import Git
import Support

/// Turns the plugin's JSON document into a ``TestSpectrum``, checking every field: the document
/// comes out of a sandbox that ran untrusted tests, so anything in it may be hostile.
struct TraceDecoder {
    let limits: CoverageTracer.Limits
    private var budget: Int

    init(limits: CoverageTracer.Limits) {
        self.limits = limits
        self.budget = limits.lineEntries
    }

    func fail(_ problem: String) -> SentinelError {
        SentinelError(.traceMalformed, "coverage trace: \(problem)")
    }

    /// A test id for a message: ids come from the untrusted side, so long ones are cut.
    func quoted(_ id: String) -> String { id.count > 120 ? String(id.prefix(119)) + "…" : id }

    mutating func spectrum(from root: DocumentNode) throws -> TestSpectrum {
        guard root.isObject else { throw fail("the document is not an object") }
        guard case .integer(1)? = root["version"]?.value else { throw fail("unsupported version (want 1)") }
        guard let filesNode = root["files"], case .array(let fileNodes) = filesNode.value else {
            throw fail("`files` is not a list")
        }
        let files = try fileNodes.map { node -> String in
            guard let path = node.string else { throw fail("a file name is not a string") }
            do { try GitPatch.checkRelative(path) } catch { throw fail("`\(path)` is not a path inside the project") }
            return path
        }
        guard let testsNode = root["tests"], case .array(let testNodes) = testsNode.value else {
            throw fail("`tests` is not a list")
        }
        var tests: [TestRun] = []
        tests.reserveCapacity(testNodes.count)
        for node in testNodes { tests.append(try test(node, files: files)) }
        var spectrum = TestSpectrum(tests: tests)
        // What the tests are made of (absent from older plugins: empty).
        spectrum.collected = Set(try paths(root["collected"], field: "collected"))
        spectrum.read = Set(try paths(root["read"], field: "read"))
        if let imports = root["imports"] {
            guard imports.isObject, imports.members.count <= 20_000 else { throw fail("`imports` is not an object") }
            for member in imports.members {
                let module = try path(member.key, field: "imports")
                let importers = try paths(member.value, field: "imports", allowingEmpty: true)
                spectrum.importers[module] = Set(importers)
            }
        }
        return spectrum
    }

    /// A list of project-relative paths (at most 20,000); nil is empty.
    private func paths(_ node: DocumentNode?, field: String, allowingEmpty: Bool = false) throws -> [String] {
        guard let node else { return [] }
        guard case .array(let elements) = node.value, elements.count <= 20_000 else { throw fail("`\(field)` is not a list") }
        return try elements.compactMap { element in
            guard let text = element.string else { throw fail("`\(field)`: a path is not a string") }
            if allowingEmpty && text.isEmpty { return "" }
            return try path(text, field: field)
        }
    }

    private func path(_ text: String, field: String) throws -> String {
        do { try GitPatch.checkRelative(text) } catch { throw fail("`\(field)`: `\(quoted(text))` is not a path inside the project") }
        return text
    }

    private mutating func test(_ node: DocumentNode, files: [String]) throws -> TestRun {
        guard node.isObject, let id = node["id"]?.string else { throw fail("a test has no `id`") }
        guard let name = node["outcome"]?.string, let outcome = TestOutcome(rawValue: name) else {
            throw fail("test \(quoted(id)): unknown outcome")
        }
        var lines = Set<SourceLine>()
        guard let linesNode = node["lines"], linesNode.isObject else { throw fail("test \(quoted(id)): `lines` is not an object") }
        for member in linesNode.members {
            guard let index = Int(member.key), files.indices.contains(index) else {
                throw fail("test \(quoted(id)): no file number \(member.key)")
            }
            guard case .array(let entries) = member.value.value else { throw fail("test \(quoted(id)): lines are not a list") }
            for entry in entries {
                let (first, last) = try run(entry, test: id)
                budget -= last - first + 1
                guard budget >= 0 else { throw fail("more than \(limits.lineEntries) executed lines") }
                for line in first...last { lines.insert(SourceLine(file: files[index], line: line)) }
            }
        }
        var run = TestRun(id: id, outcome: outcome, lines: lines)
        // Only the screen's order reads it: a value out of range (a test that patched the clock)
        // is left out, not a reason to lose the spectrum.
        switch node["seconds"]?.value {
        case .integer(let value)? where value >= 0 && value <= 1_000_000: run.seconds = Double(value)
        case .double(let value)? where value >= 0 && value <= 1_000_000: run.seconds = value
        default: break
        }
        return run
    }

    /// `n` or `[first, last]`, within 1...maximumLine.
    private func run(_ entry: DocumentNode, test id: String) throws -> (Int, Int) {
        let bounds: (Int, Int)
        switch entry.value {
        case .integer(let line): bounds = (line, line)
        case .array(let pair):
            guard pair.count == 2, case .integer(let first) = pair[0].value, case .integer(let last) = pair[1].value else {
                throw fail("test \(quoted(id)): a line run is not [first, last]")
            }
            bounds = (first, last)
        default: throw fail("test \(quoted(id)): a line is not a number")
        }
        guard 1 <= bounds.0, bounds.0 <= bounds.1, bounds.1 <= limits.line else {
            throw fail("test \(quoted(id)): line run \(bounds.0)...\(bounds.1) out of range")
        }
        return bounds
    }
}
