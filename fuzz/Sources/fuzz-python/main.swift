import FuzzSupport
import PythonSyntax

/// The Python reader SAST and heal use: source-encoding decoding (PEP 263 cookies, BOM,
/// unicode_escape/raw_unicode_escape/utf-7), then the lexer and parser. The first byte picks
/// bytes (with decoding), text (already decoded) or a rule pattern.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPython(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput(data, count)
    let typed: (any Error) -> Bool = { $0 is PythonSyntaxError }
    switch input.selector % 4 {
    case 0:
        survive("PythonSource", typed: typed) { try PythonSource(bytes: input.bytes, fileName: "fuzz.py") }
        survive("parseModule(bytes:)", typed: typed) {
            try PythonParser.parseModule(bytes: input.bytes, fileName: "fuzz.py").root.children.count
        }
    case 1, 2:
        survive("parseModule(source:)", typed: typed) {
            try PythonParser.parseModule(source: input.text, fileName: "fuzz.py").comments.count
        }
    default:
        survive("parsePattern", typed: typed) { try PythonParser.parsePattern(input.text).children.count }
    }
    return 0
}
