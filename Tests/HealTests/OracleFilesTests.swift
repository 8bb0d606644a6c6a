import Testing

@testable import Heal

/// What the tests are made of, from a traced run's collection, imports and reads — not names.
struct OracleFilesTests {
    static func spectrum(collected: [String], importers: [String: [String]], read: [String] = []) -> TestSpectrum {
        var spectrum = TestSpectrum(tests: [])
        spectrum.collected = Set(collected)
        spectrum.importers = importers.mapValues(Set.init)
        spectrum.read = Set(read)
        return spectrum
    }

    @Test func helpersOnlyTheTestsImportAndTheirDataAreTheOracle() {
        let oracle = OracleFiles(
            Self.spectrum(
                collected: ["python_testcases/test_bfs.py", "python_testcases/conftest.py"],
                importers: [
                    "python_testcases/load_testdata.py": ["python_testcases/test_bfs.py"],
                    // Imported by the helper only: support too.
                    "python_testcases/graphs.py": ["python_testcases/load_testdata.py"],
                    // Imported by the code as well: not the tests' own.
                    "python_testcases/shared.py": ["python_testcases/test_bfs.py", "python_programs/bfs.py"],
                    "python_programs/bfs.py": ["python_testcases/test_bfs.py"],
                ],
                read: ["python_testcases/json_testcases/bfs.json", "python_programs/config.json"]))
        #expect(
            oracle.files == [
                "python_testcases/test_bfs.py", "python_testcases/conftest.py", "python_testcases/load_testdata.py",
                "python_testcases/graphs.py", "python_testcases/json_testcases/bfs.json",
            ])
    }

    @Test func codeBesideATopLevelTestIsNotTheOracle() {
        let oracle = OracleFiles(
            Self.spectrum(collected: ["test_prog.py"], importers: ["prog.py": ["test_prog.py"], "util.py": ["prog.py"]]))
        #expect(oracle.files == ["test_prog.py"])
    }
}
