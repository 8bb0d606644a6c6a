/// The files the tests are made of, from what a traced run of them loaded — not from names: the
/// test modules pytest collected and its conftests; the modules beside or below them that only
/// tests (or other such modules) import — helpers, fixtures, data-structure builders; and the
/// files under those directories the tests read while they ran (their data). A candidate that
/// edits one would change the oracle instead of the code, so it is refused.
///
/// A test module at the repository's top level makes no directory a test directory: there the
/// code under repair sits beside its tests (`calc.py`, `test_calc.py`), and only the collected
/// modules are protected.
public struct OracleFiles: Sendable, Hashable {
    /// The protected files, repository-relative.
    public let files: Set<String>

    /// None (no traced run).
    public init() { files = [] }

    /// The oracle of a traced run.
    public init(_ spectrum: TestSpectrum) {
        let tests = spectrum.collected
        let directories = Set(
            tests.compactMap { path -> String? in
                guard let slash = path.lastIndex(of: "/") else { return nil }
                return String(path[..<slash]) + "/"
            })
        func underTests(_ path: String) -> Bool { directories.contains { path.hasPrefix($0) } }
        var support = Set<String>()
        var changed = true
        while changed {
            changed = false
            for (module, importers) in spectrum.importers where !tests.contains(module) && !support.contains(module) {
                guard underTests(module), !importers.isEmpty,
                    importers.allSatisfy({ tests.contains($0) || support.contains($0) })
                else { continue }
                support.insert(module)
                changed = true
            }
        }
        files = tests.union(support).union(spectrum.read.filter(underTests))
    }

    /// Whether `path` is one of them.
    public func contains(_ path: String) -> Bool { files.contains(path) }
}
