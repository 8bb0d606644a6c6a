/// What a file imports, and what it reads through the names it imports, for
/// ``ProjectSummaries/noteImports(of:text:)``: read from Python's text before parsing
/// (``PythonImportUses``) or from JavaScript's lowered tree (``JavaScriptImportUses``), the same
/// facts either way.
protocol ImportUses {
    /// (module as written, name or `*`, the local name when one is given) of each import:
    /// `from m import a as b` is (`m`, `a`, `b`), `import m` is (`m`, `*`, nil); relative modules keep
    /// their dots.
    var imports: [(module: String, name: String, alias: String?)] { get }
    /// The attributes the file reads of each of `names` (`run` of `Job.run(...)`), by name.
    func attributes(of names: Set<String>) -> [String: Set<String>]
    /// The names of `names` the file's classes subclass.
    func subclassed(_ names: Set<String>) -> Set<String>
}

/// A Python file's imports, from its text (``ImportScan``).
struct PythonImportUses: ImportUses {
    let text: String
    let imports: [(module: String, name: String, alias: String?)]

    init(text: String) {
        self.text = text
        imports = ImportScan.imports(in: text)
    }

    func attributes(of names: Set<String>) -> [String: Set<String>] { ImportScan.attributes(of: names, in: text) }

    func subclassed(_ names: Set<String>) -> Set<String> { ImportScan.subclassed(names, in: text) }
}
