import PythonSyntax
import Signals

/// Fault localisation when no coverage trace can be had (the command's Python cannot load the
/// tracer, or it does not run pytest): the project's modules the failing tests import, directly
/// or through the modules they import, read statically. Lines of the functions the failing tests
/// call (and the functions those call) rank first, lines a traceback names above all; the rest of
/// those modules' functions follow, then their module-level statements. Coarser than a spectrum,
/// which also tells lines passing tests run apart from the failing tests' own: the repair
/// templates get more lines to try.
public enum ImportLocalisation {
    /// A traceback frame in the code under repair.
    static let tracebackScore = 1.0
    /// A statement of a function the failing tests reach by name.
    static let calledScore = 0.5
    /// A statement of another function of an imported module.
    static let functionScore = 0.2
    /// A module-level statement of an imported module (imports left out).
    static let moduleScore = 0.05
    /// How many project modules are read at most.
    static let maxModules = 200

    /// The lines of the modules `failingTests` (pytest node ids, `tests/test_x.py::test_y`)
    /// import, most suspicious first; `locations` are traceback frames (those outside test files
    /// rank first, and their modules are read too). `files` are the repository's files and `read`
    /// their text. Test files are never ranked. Empty when neither a failing test's file nor a
    /// frame's is among `files`.
    public static func rank(
        failingTests: [String], locations: [Signal.Location] = [], files: [String], read: (String) -> String?
    ) -> [SuspiciousLine] {
        let python = Set(files.filter { $0.hasSuffix(".py") })
        var testFunctions: [String: Set<String>] = [:]
        for id in failingTests {
            let parts = id.components(separatedBy: "::")
            guard let file = parts.first, python.contains(file) else { continue }
            var function = parts.last ?? ""
            if let bracket = function.firstIndex(of: "[") { function = String(function[..<bracket]) }
            testFunctions[file, default: []].insert(parts.count > 1 ? function : "")
        }
        // A traceback's frames in the code under repair start the reading too (an exception
        // with no test): the functions they are in count as called.
        let frames = locations.filter { $0.line != nil && python.contains($0.file) && !RegressionGuard.isTestFile($0.file) }
        guard !testFunctions.isEmpty || !frames.isEmpty else { return [] }
        let index = ModuleIndex(python)

        // The failing tests' own names, then the project modules reached through imports.
        var used = Set<String>()
        var parsed: [String: SyntaxNode] = [:]
        var queue = testFunctions.keys.sorted()
        for frame in frames where !queue.contains(frame.file) { queue.append(frame.file) }
        var seen = Set(queue)
        var position = 0
        while position < queue.count, seen.count <= maxModules {
            let file = queue[position]
            position += 1
            guard let text = read(file), let root = try? PythonParser.parseModule(source: text, fileName: file).root else {
                continue
            }
            parsed[file] = root
            if let functions = testFunctions[file] {
                used.formUnion(names(in: root, functions: functions))
            }
            for frame in frames where frame.file == file {
                let line = frame.line ?? 0
                root.walk { node in
                    guard node.range.contains(line: line) else { return false }
                    if node.kind == .functionDef || node.kind == .asyncFunctionDef, let name = node.text { used.insert(name) }
                    return true
                }
            }
            for module in index.imports(of: root, in: file) where seen.insert(module).inserted {
                queue.append(module)
            }
        }
        let modules = parsed.keys.filter { !RegressionGuard.isTestFile($0) }.sorted()

        // Functions the used names reach, then the names those functions use, until none is new.
        var definitions: [(file: String, function: SyntaxNode)] = []
        for file in modules {
            parsed[file]?.walk { node in
                if node.kind == .functionDef || node.kind == .asyncFunctionDef { definitions.append((file, node)) }
                return true
            }
        }
        var called = Set<Int>()
        var changed = true
        while changed {
            changed = false
            for (number, definition) in definitions.enumerated() where !called.contains(number) {
                guard let name = definition.function.text, used.contains(name) else { continue }
                called.insert(number)
                used.formUnion(names(in: definition.function))
                changed = true
            }
        }

        var scores: [SourceLine: Double] = [:]
        func raise(_ line: SourceLine, _ score: Double) { scores[line] = max(scores[line] ?? 0, score) }
        for (number, definition) in definitions.enumerated() {
            let score = called.contains(number) ? calledScore : functionScore
            for line in statementLines(in: definition.function.children.last) {
                raise(SourceLine(file: definition.file, line: line), score)
            }
        }
        for file in modules {
            for statement in parsed[file]?.children ?? [] where statement.kind.isStatement {
                guard ![.import, .importFrom, .functionDef, .asyncFunctionDef, .classDef].contains(statement.kind) else {
                    continue
                }
                raise(SourceLine(file: file, line: statement.range.start.line), moduleScore)
            }
        }
        for location in locations {
            guard let line = location.line, modules.contains(location.file) else { continue }
            raise(SourceLine(file: location.file, line: line), tracebackScore)
        }
        return scores.map { SuspiciousLine(file: $0.key.file, line: $0.key.line, score: $0.value) }.sorted {
            if $0.score != $1.score { return $0.score > $1.score }
            return ($0.file, $0.line) < ($1.file, $1.line)
        }
    }

    /// The identifiers and attribute names used in `root`: in the functions named `functions`
    /// when it defines any of them (a name `""` stands for the whole file), else in all of it.
    static func names(in root: SyntaxNode, functions: Set<String> = [""]) -> Set<String> {
        var scopes: [SyntaxNode] = []
        if !functions.contains("") {
            root.walk { node in
                if node.kind == .functionDef || node.kind == .asyncFunctionDef, let name = node.text, functions.contains(name) {
                    scopes.append(node)
                }
                return true
            }
        }
        var names = Set<String>()
        for scope in scopes.isEmpty ? [root] : scopes {
            scope.walk { node in
                if node.kind == .name || node.kind == .attribute, let text = node.text { names.insert(text) }
                if node.kind == .alias, let text = node.text { names.insert(text.split(separator: ".").last.map(String.init) ?? text) }
                return true
            }
        }
        return names
    }

    /// The first line of every statement in `block` and the blocks nested in it (a compound
    /// statement's header: `if`, `while`, `for`), nested definitions included.
    static func statementLines(in block: SyntaxNode?) -> [Int] {
        var lines: [Int] = []
        for statement in block?.children ?? [] {
            statement.walk { node in
                if node.kind.isStatement { lines.append(node.range.start.line) }
                return true
            }
        }
        return lines
    }
}

/// The project's Python files by the module names they can be imported as: `src/shelf/stock.py`
/// is `shelf.stock` (with `src` on `sys.path`), `src.shelf.stock` and `stock` alike, since which
/// directories the command puts on `sys.path` is not known.
struct ModuleIndex {
    private var byName: [String: [String]] = [:]
    private let files: Set<String>

    init(_ files: Set<String>) {
        self.files = files
        for file in files.sorted() {
            var parts = file.dropLast(3).split(separator: "/").map(String.init)
            if parts.last == "__init__" { parts.removeLast() }
            for start in parts.indices {
                byName[parts[start...].joined(separator: "."), default: []].append(file)
            }
        }
    }

    /// The files `module` (dotted, absolute) may be.
    func files(of module: String) -> [String] { byName[module] ?? [] }

    /// The project files the import statements of `root` (the module at `file`) name: each
    /// package on the way to an imported module, the module, and a `from` import's names that
    /// are submodules.
    func imports(of root: SyntaxNode, in file: String) -> [String] {
        var found: [String] = []
        root.walk { node in
            switch node.kind {
            case .import:
                for alias in node.children {
                    guard let name = alias.text else { continue }
                    let parts = name.split(separator: ".")
                    for end in parts.indices { found += files(of: parts[...end].joined(separator: ".")) }
                }
            case .importFrom:
                let text = node.text ?? ""
                let level = text.prefix { $0 == "." }.count
                let module = String(text.dropFirst(level))
                let names = node.children.compactMap(\.text).filter { $0 != "*" }
                if level == 0 {
                    let parts = module.split(separator: ".")
                    for end in parts.indices { found += files(of: parts[...end].joined(separator: ".")) }
                    for name in names { found += files(of: module + "." + name) }
                } else {
                    var directory = file.split(separator: "/").dropLast().map(String.init)
                    directory.removeLast(min(directory.count, level - 1))
                    let base = (directory + module.split(separator: ".").map(String.init)).joined(separator: "/")
                    found += relative(base)
                    for name in names { found += relative(base.isEmpty ? name : base + "/" + name) }
                }
            default:
                break
            }
            return true
        }
        return found
    }

    /// `path.py` or `path/__init__.py`, whichever is a project file.
    private func relative(_ path: String) -> [String] {
        [path + ".py", path + "/__init__.py"].filter(files.contains)
    }
}

extension ImportLocalisation {
    /// ``rank(failingTests:locations:files:read:)`` for a heal: the tests that failed on the
    /// unchanged tree (else the signal's), the frames of their tracebacks and the signal's.
    public static func rank(_ context: ActorContext) -> [SuspiciousLine] {
        rank(signal: context.signal, baseline: context.baseline, workspace: context.workspace)
    }

    /// ``rank(failingTests:locations:files:read:)`` for `signal` in `workspace`, with what
    /// `baseline` (the unchanged tree's run) reported.
    public static func rank(signal: Signal, baseline: Verification, workspace: HealWorkspace) -> [SuspiciousLine] {
        let report = baseline.tests
        let failing = report.map(\.failing).flatMap { $0.isEmpty ? nil : $0 } ?? signal.failingTests
        let locations = (report?.failures.flatMap(\.locations) ?? []) + signal.locations
        return rank(failingTests: failing, locations: locations, files: workspace.files, read: workspace.read)
    }
}
