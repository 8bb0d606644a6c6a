import Heal
import Signals
import Testing

/// Fault localisation read from the failing tests' imports, for runs no coverage trace comes out
/// of.
@Suite("Import localisation")
struct ImportLocalisationTests {
    static let files: [String: String] = [
        "src/shelf/__init__.py": "from .stock import below_threshold, total\n\nVERSION = 1\n",
        "src/shelf/stock.py": """
        from .util import clamp


        def below_threshold(levels, threshold):
            low = []
            for name, count in levels.items():
                if clamp(count) < threshold:
                    low.append(name)
            return low


        def total(levels):
            return sum(levels.values())

        """,
        "src/shelf/util.py": """
        def clamp(value):
            return max(0, value)


        def unused(value):
            return -value

        """,
        "src/other.py": "def elsewhere():\n    return 1\n",
        "tests/test_stock.py": """
        from shelf import below_threshold, total


        def test_at_threshold():
            assert below_threshold({"a": 5}, 5) == ["a"]


        def test_total():
            assert total({"a": 1}) == 1

        """,
        "tests/helpers.py": "def build():\n    return {}\n",
    ]

    static func rank(_ failing: [String], locations: [Signal.Location] = []) -> [String] {
        ImportLocalisation.rank(failingTests: failing, locations: locations, files: Array(files.keys)) { files[$0] }
            .map { "\($0.file):\($0.line) \($0.score)" }
    }

    @Test("the functions the failing test calls (and those they call) first, then the rest of the modules reached")
    func ranksByReach() {
        #expect(
            Self.rank(["tests/test_stock.py::test_at_threshold"]) == [
                "src/shelf/stock.py:5 0.5", "src/shelf/stock.py:6 0.5", "src/shelf/stock.py:7 0.5", "src/shelf/stock.py:8 0.5",
                "src/shelf/stock.py:9 0.5", "src/shelf/util.py:2 0.5", "src/shelf/stock.py:13 0.2", "src/shelf/util.py:6 0.2",
                "src/shelf/__init__.py:3 0.05",
            ])
    }

    @Test("a traceback frame in the code ranks above all; test files and unreached modules never rank")
    func tracebackFirst() {
        let ranked = Self.rank(
            ["tests/test_stock.py::test_total"],
            locations: [
                Signal.Location(file: "src/shelf/stock.py", line: 13), Signal.Location(file: "tests/test_stock.py", line: 9),
            ])
        #expect(ranked.first == "src/shelf/stock.py:13 1.0")
        #expect(ranked.dropFirst().first == "src/shelf/stock.py:5 0.2")
        #expect(!ranked.contains { $0.hasPrefix("tests/") || $0.hasPrefix("src/other.py") })
    }

    @Test("an exception with no test: the frame's module is read, its function counts as called")
    func frameOnly() {
        let ranked = Self.rank([], locations: [Signal.Location(file: "src/shelf/util.py", line: 2)])
        #expect(ranked == ["src/shelf/util.py:2 1.0", "src/shelf/util.py:6 0.2"])
    }

    @Test("nothing to start from: no line")
    func nothing() {
        #expect(Self.rank(["tests/test_missing.py::test_x"]).isEmpty)
        #expect(Self.rank([]).isEmpty)
    }
}
