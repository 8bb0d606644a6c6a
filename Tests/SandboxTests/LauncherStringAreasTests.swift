import Testing

@testable import Sandbox

/// The launcher finds its own argv and environment strings, which the sandbox init overwrites.
struct LauncherStringAreasTests {
    /// The command name may hold spaces and parentheses: fields count from the last `)`.
    @Test func fieldsCountFromTheLastParenthesis() {
        let tail = (4...47).map(String.init).joined(separator: " ")
        let line = "1234 (a b) (c)) S \(tail) 100 200 200 300 0\n"
        #expect(
            LauncherStringAreas.parse(line) == LauncherStringAreas(arguments: 100..<200, environment: 200..<300))
        #expect(LauncherStringAreas.parse("1234 (x) S 1 2 3") == nil)
        #expect(LauncherStringAreas.parse("garbage") == nil)
    }

    /// The area found for this process starts with its own argv[0].
    @Test func theCurrentAreaHoldsThisProcesssArguments() throws {
        let areas = try #require(LauncherStringAreas.current)
        #expect(!areas.arguments.isEmpty && !areas.environment.isEmpty)
        let first = try #require(UnsafePointer<CChar>(bitPattern: areas.arguments.lowerBound))
        #expect(String(cString: first) == CommandLine.arguments[0])
    }
}
