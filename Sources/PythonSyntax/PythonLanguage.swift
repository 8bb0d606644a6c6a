import Support
import SyntaxTree

/// Python as the engine reads it (issue 77, the language seam): `.py` and its kin, scripts run by
/// `python*`/`pypy*`, parsed by ``PythonParser`` (Python 3, else the Python 2 dialect) straight
/// into the shared tree, whose kinds began as Python's.
public struct PythonLanguage: Language {
    /// The language.
    public init() {}

    /// `python`.
    public var name: String { "python" }
    /// `py`.
    public var aliases: [String] { ["py"] }
    /// `.py`, `.pyw`, `.pyi` (stubs), `.ipynb` (notebooks' code cells) and `.wsgi` (mod_wsgi's
    /// application script, Python whatever its first line says).
    public var fileExtensions: [String] { ["py", "pyw", "pyi", "ipynb", "wsgi"] }
    /// `python3.12`, `pypy3`...
    public func runsScripts(of interpreter: String) -> Bool {
        let name = interpreter.lowercased()
        return name.hasPrefix("python") || name.hasPrefix("pypy")
    }
    /// Python's own.
    public var patternSyntax: String { "python" }

    /// Parsed as Python 3, or with the Python 2 dialect when only that reads it (said in
    /// ``LoweredSource/dialectNotice``).
    public func read(_ bytes: [UInt8], file: String) throws(SourceReadError) -> LoweredSource {
        do {
            let module = try PythonParser.parseAnyDialectOnCurrentThread(bytes: bytes, fileName: file)
            return LoweredSource(
                root: module.root,
                dialectNotice: module.python3Failure.map { "\($0.description) (analysed with the Python 2 dialect)" })
        } catch let error as PythonSyntaxError {
            throw Self.readError(error)
        } catch {
            throw Self.readError(
                PythonSyntaxError(.unexpectedToken, file: file, line: 1, column: 1, message: "cannot parse: \(error)"))
        }
    }

    /// ``PythonParser/parsePattern(_:)``.
    public func lowerPattern(_ text: String) throws(SourceReadError) -> SyntaxNode {
        do {
            return try PythonParser.parsePattern(text)
        } catch let error as PythonSyntaxError {
            throw Self.readError(error)
        } catch {
            throw Self.readError(
                PythonSyntaxError(.unexpectedToken, file: "<pattern>", line: 1, column: 1, message: "cannot parse: \(error)"))
        }
    }

    /// A Python error said as every language's: its nesting bound is a bound, an encoding it
    /// cannot decode is that, anything else a syntax error.
    public static func readError(_ error: PythonSyntaxError) -> SourceReadError {
        let code: SourceReadError.Code =
            switch error.code {
            case .nestingTooDeep: .boundHit
            case .unsupportedEncoding: .unsupportedEncoding
            default: .syntax
            }
        return SourceReadError(
            code, file: error.file, line: error.line, column: error.column, message: error.message,
            description: error.description, runtime: "Python", underlying: error)
    }

    /// Dotted names at the root of the namespace, found by their ends too (a scan may start
    /// above the package); imports read from the text before the file is parsed. `from . import
    /// m; m.f()` is not followed yet (until that change is judged on Python's corpora).
    public var modules: ModuleConventions {
        ModuleConventions(
            namespace: "", resolvesBySuffix: true, bareRelativeImportsNamePackages: false,
            callingModuleCallsDefaultExport: false, importsReadFromTree: false, packageFileName: "__init__.py")
    }

    /// `pkg/sub/mod.py` → `pkg.sub.mod`; `pkg/__init__.py` → `pkg` (a package); nil for a name no
    /// import can spell (a part with a `.` or `-`, or another extension).
    public func module(ofFile file: String) -> SourceModule? {
        var parts = file.split(separator: "/").map(String.init)
        guard var last = parts.popLast() else { return nil }
        for suffix in [".py", ".pyw"] where last.hasSuffix(suffix) { last.removeLast(suffix.count) }
        let isPackage = last == "__init__"
        if !isPackage { parts.append(last) }
        guard parts.allSatisfy({ !$0.isEmpty && !$0.contains(".") && !$0.contains("-") }) else { return nil }
        return SourceModule(name: parts.joined(separator: "."), isPackage: isPackage)
    }

    /// `self` and `cls`.
    public var receiverNames: Set<String> { ["self", "cls"] }
    /// Python writes its functions as statements (a `lambda` is an expression the engine reads in place).
    public var hoisting: FunctionHoisting? { nil }
    /// Python's imports are its only bindings of modules' values the engine follows.
    public var bindsImportedValuesToNames: Bool { false }
    /// A Python module exports its definitions under their own names.
    public var exportsUnderOtherNames: Bool { false }
}
