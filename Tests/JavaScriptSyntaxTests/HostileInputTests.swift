import SourcePositions
import Testing

@testable import JavaScriptSyntax

/// Input built to break the parser: every case is a typed error with a position, never a crash.
@Suite struct HostileInputTests {
    @Test func deepNestingIsABoundedError() {
        let depth = 100_000
        for (open, close) in [("(", ")"), ("[", "]"), ("{a:", "}"), ("-", ""), ("<a>", "</a>"), ("function(){", "}")] {
            let source = String(repeating: open, count: depth) + "x" + String(repeating: close, count: depth)
            let error = rejection("y = " + source)
            #expect(error?.code == .nestingTooDeep, "\(open): \(String(describing: error))")
        }
        let types = "type T = " + String(repeating: "Array<", count: 50_000) + "x" + String(repeating: ">", count: 50_000)
        #expect(rejection(types, "t.ts")?.code == .nestingTooDeep)
        let blocks = String(repeating: "if (a) {", count: 50_000) + String(repeating: "}", count: 50_000)
        #expect(rejection(blocks)?.code == .nestingTooDeep)
    }

    @Test func longChainsAreBoundedToo() {
        let sum = "x = " + Array(repeating: "a", count: 20_000).joined(separator: " + ")
        #expect(rejection(sum)?.code == .nestingTooDeep)
        let members = "x" + String(repeating: ".a", count: 20_000)
        #expect(rejection(members)?.code == .nestingTooDeep)
        // Within the bound, a long chain parses.
        #expect(rejection("x = " + Array(repeating: "a", count: 2_000).joined(separator: " + ")) == nil)
    }

    @Test func unterminatedConstructsNameTheirStart() {
        let cases: [(String, JavaScriptSyntaxError.Code)] = [
            ("x = `abc ${d}", .unterminatedTemplate), ("x = `abc", .unterminatedTemplate),
            ("x = /abc\n/", .unterminatedRegex), ("/* never closed", .unterminatedComment),
            ("x = 'abc\n'", .unterminatedString), ("x = <div>", .invalidJSX), ("x = <div attr=\"a", .unterminatedString),
        ]
        for (source, code) in cases {
            let error = rejection(source)
            #expect(error?.code == code, "\(source): \(String(describing: error))")
            #expect(error?.line == 1)
        }
        #expect(rejection("let a = 1;\nlet b = `x")?.line == 2)
        #expect(rejection("let a = 1;\nlet b = `x")?.column == 9)
    }

    @Test func invalidUTF8AndNULBytesAreErrorsWithPositions() throws {
        let invalid: [UInt8] = Array("let a = 1;\nlet b = '".utf8) + [0xC3, 0x28] + Array("';".utf8)
        do {
            _ = try JavaScriptParser.parse(bytes: invalid, fileName: "bad.js")
            Issue.record("invalid UTF-8 was accepted")
        } catch let error as JavaScriptSyntaxError {
            #expect(error.code == .invalidCharacter && error.line == 2 && error.column == 10)
        }
        // NUL is allowed inside strings (as JavaScript allows) and an error anywhere else.
        #expect(try program("x = 'a\u{0}b'").children.count == 1)
        let nul = rejection("x = a\u{0}b")
        #expect(nul?.code == .invalidCharacter && nul?.column == 6)
    }

    @Test func hugeFilesAreRefusedBeforeReading() {
        let bytes = [UInt8](repeating: 0x20, count: JavaScriptParser.maximumSourceBytes + 1)
        do {
            _ = try JavaScriptParser.parse(bytes: bytes, fileName: "huge.js")
            Issue.record("a file over the limit was read")
        } catch let error as JavaScriptSyntaxError {
            #expect(error.code == .fileTooLarge)
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func ambiguousArrowHeadsStayLinear() {
        // Each `(` could start an arrow's parameters: tried once, remembered as failed.
        let source = "x = " + String(repeating: "(a, ", count: 150) + "b" + String(repeating: ")", count: 150)
        #expect(rejection(source) == nil)
        let defaults = "x = " + String(repeating: "(a = ", count: 150) + "b" + String(repeating: ")", count: 150)
        #expect(rejection(defaults) == nil)
    }

    @Test func errorsAreOneLine() {
        let error = rejection("let x = ;")
        #expect(error?.description == "test.js:1:9: expected an expression, found ';'")
        #expect(rejection("if (")?.code == .unexpectedEndOfFile)
        #expect(rejection("a b")?.code == .unexpectedToken)
        #expect(rejection("let x = 1 +")?.code == .unexpectedEndOfFile)
        #expect(rejection("x = 08.5.5") != nil)
        #expect(rejection("@")?.code != nil)
        #expect(rejection("a ? b") != nil)
        #expect(rejection("function () {}") != nil)
        #expect(rejection("export default function () {}") == nil)
    }

    @Test func mutatedSourcesNeverCrash() throws {
        let seed = """
            import x, { y } from './m';
            export default class A<T> extends B { #p = 1; static { } async *m(a = `t${b}`) { yield* c?.d?.[e] ?? /re/g } }
            const el = <div a="1" {...p}>{items.map(i => <i key={i}>{i as any}</i>)}</div>;
            type M<T> = { [K in keyof T]?: T[K] extends infer U ? U : never };
            """
        let bytes = Array(seed.utf8)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for round in 0..<400 {
            var mutated = bytes
            for _ in 0..<(1 + round % 4) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let position = Int(state >> 33) % mutated.count
                switch round % 3 {
                case 0: mutated.remove(at: position)
                case 1: mutated.insert(bytes[Int(state >> 40) % bytes.count], at: position)
                default: mutated[position] = UInt8(truncatingIfNeeded: state >> 50)
                }
            }
            for name in ["m.tsx", "m.ts", "m.js"] {
                _ = try? JavaScriptParser.parse(bytes: mutated, fileName: name)
            }
        }
    }
}

/// Code that looks close to valid: rejected, as tree-sitter and V8 do.
@Suite struct InvalidCodeTests {
    @Test func invalidProgramsAreRejected() {
        let invalid = [
            "let x = 1 2", "obj = {a b}", "x = {a = 1}", "f({a = 1})", "a?.b = 1", "a?.b.c = 1", "(a, b) =>",
            "x = `${}`", "0b12", "for (let x of a, b) {}", "x = <a></a><b/>", "({a: 1} = b)", "new.foo", "a ? b",
            "class { }", "if (a) else b", "class A { m() { return #x } }", "`${#x}`", "x = y +* z", "function (a b) {}", "[a] => 1",
        ]
        for source in invalid {
            #expect(rejection(source) != nil, "accepted: \(source)")
        }
        // The same shapes where they are valid.
        for source in ["({a = 1} = b)", "[{a = 1}] = c", "for ({a = 1} of x) {}", "f(({a = 1}) => a)", "a?.b.c"] {
            #expect(rejection(source) == nil, "rejected: \(source)")
        }
    }
}

/// Ranges: where each node starts and ends, in UTF-8 columns and in code points for findings.
@Suite struct RangeTests {
    @Test func nodesSpanTheirSource() throws {
        let root = try program("const s = 'é';\nfoo.bar(1, `x`);\n")
        let call = nodes(root, .call)[0]
        #expect(call.range.description == "2:1-2:16")
        #expect(root.children[0].range.description == "1:1-1:16")
        let string = nodes(root, .string)[0]
        #expect(string.range.end.column == 15)
        let lines = LineIndex(Array("const s = 'é';".utf8))
        #expect(string.range.end.codePointColumn(in: lines) == 14)
    }

    @Test func rightAssociativeChainsAreBounded() {
        let power = "x = " + Array(repeating: "2", count: 20_000).joined(separator: " ** ")
        #expect(rejection(power)?.code == .nestingTooDeep)
        let conditional = "x = " + String(repeating: "a ? b : ", count: 20_000) + "c"
        #expect(rejection(conditional)?.code == .nestingTooDeep)
        let assignment = "x = " + String(repeating: "a = ", count: 20_000) + "c"
        #expect(rejection(assignment)?.code == .nestingTooDeep)
    }
}

/// Inputs whose cost would grow faster than their size without the parser's bounds.
@Suite struct LinearTimeTests {
    @Test func manyShorthandDefaultsInOnePattern() {
        let properties = (0..<20_000).map { "a\($0) = 1" }.joined(separator: ", ")
        #expect(rejection("({ \(properties) } = x)") == nil)
        #expect(rejection("x = { \(properties) }")?.code == .unexpectedToken)
    }

    @Test func repeatedParenthesisedTypesAreBounded() {
        let type = "let x: " + String(repeating: "({a: [", count: 150) + "1" + String(repeating: "]})", count: 150)
        let error = rejection(type, "t.ts")
        #expect(error == nil || error?.code == .tooAmbiguous || error?.code == .nestingTooDeep)
    }
}
