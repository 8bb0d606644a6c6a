import Heal
import Support
import Testing

@Suite("CoverageTracer.parse")
struct CoverageTracerTests {
    static func block(_ json: String) -> String {
        "\n\(CoverageTracer.beginMarker)\n\(json)\n\(CoverageTracer.endMarker)\n"
    }

    static let valid = #"""
        {"version":1,"files":["pkg/a.py","b.py"],"tests":[
        {"id":"tests/test_a.py::test_x","outcome":"failed","lines":{"0":[3,[5,7]],"1":[1]}},
        {"id":"tests/test_a.py::test_y[\u00e9]","outcome":"passed","lines":{}},
        {"id":"t::z","outcome":"skipped","lines":{"1":[[2,2]]}}]}
        """#

    @Test("a document decodes with line runs expanded")
    func decodes() throws {
        let spectrum = try CoverageTracer.parse(output: "....F\n1 failed" + Self.block(Self.valid))
        #expect(spectrum.tests.map(\.id) == ["tests/test_a.py::test_x", "tests/test_a.py::test_y[é]", "t::z"])
        #expect(spectrum.tests.map(\.outcome) == [.failed, .passed, .skipped])
        let lines = spectrum.tests[0].lines
        #expect(lines == Set([3, 5, 6, 7].map { SourceLine(file: "pkg/a.py", line: $0) } + [SourceLine(file: "b.py", line: 1)]))
        #expect(spectrum.tests[2].lines == [SourceLine(file: "b.py", line: 2)])
        #expect(spectrum.failingTests.count == 1 && spectrum.passingTests.count == 1)
    }

    @Test("each test's seconds are read where the plugin recorded them, and left out where they are not seconds")
    func seconds() throws {
        let json = #"""
            {"version":1,"files":[],"tests":[{"id":"a","outcome":"failed","lines":{},"seconds":0.25},
            {"id":"b","outcome":"passed","lines":{},"seconds":3},{"id":"c","outcome":"passed","lines":{}}]}
            """#
        #expect(try CoverageTracer.parse(output: Self.block(json)).tests.map(\.seconds) == [0.25, 3, nil])
        // A value out of range (a test patched the clock) is left out; the spectrum stays.
        let odd = #"""
            {"version":1,"files":[],"tests":[{"id":"a","outcome":"failed","lines":{},"seconds":-0.5},
            {"id":"b","outcome":"passed","lines":{},"seconds":1e300},{"id":"c","outcome":"passed","lines":{},"seconds":"1"}]}
            """#
        #expect(try CoverageTracer.parse(output: Self.block(odd)).tests.map(\.seconds) == [nil, nil, nil])
    }

    @Test("the last marked document wins; CRLF line ends are fine")
    func lastBlock() throws {
        let fake = Self.block(#"{"version":1,"files":[],"tests":[{"id":"fake","outcome":"passed","lines":{}}]}"#)
        let real = Self.block(Self.valid).replacingOccurrences(of: "\n", with: "\r\n")
        let spectrum = try CoverageTracer.parse(output: "x" + fake + "more output\n" + real + "trailing\n")
        #expect(spectrum.tests.count == 3)
        // A begin marker with no end after it (output cut off) falls back to the last whole block.
        let cut = try CoverageTracer.parse(output: fake + "\n\(CoverageTracer.beginMarker)\n{\"vers")
        #expect(cut.tests.map(\.id) == ["fake"])
    }

    @Test("no marked document is trace-missing", arguments: ["", "1 passed\n", "\(CoverageTracer.endMarker)\n{}\n"])
    func missing(output: String) {
        #expect { try CoverageTracer.parse(output: output) } throws: { ($0 as? SentinelError)?.code == .traceMissing }
    }

    @Test(
        "hostile or broken documents are trace-malformed",
        arguments: [
            "not json", "[]", #"{"version":2,"files":[],"tests":[]}"#, #"{"version":1,"files":"x","tests":[]}"#,
            #"{"version":1,"files":["/etc/passwd"],"tests":[]}"#, #"{"version":1,"files":["../up.py"],"tests":[]}"#,
            #"{"version":1,"files":[],"tests":[{"outcome":"passed","lines":{}}]}"#,
            #"{"version":1,"files":[],"tests":[{"id":"t","outcome":"exploded","lines":{}}]}"#,
            #"{"version":1,"files":["a.py"],"tests":[{"id":"t","outcome":"passed","lines":{"1":[1]}}]}"#,
            #"{"version":1,"files":["a.py"],"tests":[{"id":"t","outcome":"passed","lines":{"0":[0]}}]}"#,
            #"{"version":1,"files":["a.py"],"tests":[{"id":"t","outcome":"passed","lines":{"0":[[9,3]]}}]}"#,
            #"{"version":1,"files":["a.py"],"tests":[{"id":"t","outcome":"passed","lines":{"0":[[1,2,3]]}}]}"#,
            #"{"version":1,"files":["a.py"],"tests":[{"id":"t","outcome":"passed","lines":{"0":[1.5]}}]}"#,
            #"{"version":1,"files":["a.py"],"tests":[{"id":"t","outcome":"passed","lines":{"0":[[1,99999999999]]}}]}"#,
            String(repeating: "[", count: 100_000),
        ])
    func malformed(json: String) {
        #expect { try CoverageTracer.parse(output: Self.block(json)) } throws: {
            ($0 as? SentinelError)?.code == .traceMalformed
        }
    }

    @Test("documents, line numbers and expanded line runs are bounded")
    func limits() throws {
        let small = CoverageTracer.Limits(documentBytes: 400, lineEntries: 10, line: 50)
        let test = #"{"id":"t","outcome":"passed","lines":{"0":[[1,6]]}}"#
        let two = Self.block(#"{"version":1,"files":["a.py"],"tests":[\#(test),\#(test)]}"#)
        #expect { try CoverageTracer.parse(output: two, limits: small) } throws: {
            ($0 as? SentinelError)?.message.contains("more than 10 executed lines") == true
        }
        #expect(try CoverageTracer.parse(output: two, limits: CoverageTracer.Limits(lineEntries: 12)).tests.count == 2)
        let far = Self.block(#"{"version":1,"files":["a.py"],"tests":[{"id":"t","outcome":"passed","lines":{"0":[51]}}]}"#)
        #expect { try CoverageTracer.parse(output: far, limits: small) } throws: { ($0 as? SentinelError)?.code == .traceMalformed }
        let big = Self.block(#"{"version":1,"files":[],"tests":[],"pad":"\#(String(repeating: "x", count: 400))"}"#)
        #expect { try CoverageTracer.parse(output: big, limits: small) } throws: {
            ($0 as? SentinelError)?.message.contains("more than 400") == true
        }
    }
}
