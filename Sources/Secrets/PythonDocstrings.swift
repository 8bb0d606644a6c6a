/// The lines of a Python file's docstrings (a module's, a class's or a function's first statement
/// when it is a triple-quoted string), found by a linear pass over the bytes: comments and strings
/// are skipped as the tokenizer does, without parsing. A `password = "..."` inside one is an
/// example for the reader (issue 55: oauthlib's token dict copied into a method's docstring).
enum PythonDocstrings {
    /// 1-based line numbers inside docstrings (the opening and closing lines included).
    static func lines(in bytes: [UInt8]) -> Set<Int> {
        var out = Set<Int>()
        var line = 1
        var i = 0
        // Code seen on the current line, in the file, and the state of a `def`/`class` header.
        var lineHasCode = false
        var codeSeen = false
        var inHeader = false
        var headerEnded = false
        var lastCode: UInt8 = 0
        let quote1 = UInt8(ascii: "'")
        let quote2 = UInt8(ascii: "\"")
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "\n") {
                if lineHasCode {
                    if inHeader, lastCode == UInt8(ascii: ":") {
                        inHeader = false
                        headerEnded = true
                    }
                }
                line += 1
                lineHasCode = false
                i += 1
                continue
            }
            if byte == UInt8(ascii: "#") {
                while i < bytes.count, bytes[i] != UInt8(ascii: "\n") { i += 1 }
                continue
            }
            if byte == quote1 || byte == quote2 {
                let triple = i + 2 < bytes.count && bytes[i + 1] == byte && bytes[i + 2] == byte
                let startsLine = !lineHasCode || Self.onlyPrefixBefore(i, in: bytes)
                let isDocstring = triple && startsLine && (!codeSeen || headerEnded)
                let opened = line
                i += triple ? 3 : 1
                // Skip to the closing quote; a backslash escapes the next byte in every string.
                while i < bytes.count {
                    let inner = bytes[i]
                    if inner == UInt8(ascii: "\\") {
                        if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\n") { line += 1 }
                        i += 2
                        continue
                    }
                    if inner == UInt8(ascii: "\n") {
                        if !triple { break }  // an unterminated one-line string ends at the line
                        line += 1
                    }
                    if inner == byte, !triple || (i + 2 < bytes.count && bytes[i + 1] == byte && bytes[i + 2] == byte) {
                        i += triple ? 3 : 1
                        break
                    }
                    i += 1
                }
                if isDocstring { for number in opened...line { out.insert(number) } }
                lineHasCode = true
                codeSeen = true
                headerEnded = false
                lastCode = byte
                continue
            }
            if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\r") {
                if !lineHasCode {
                    // A new logical line: a definition's header starts, or the body goes on.
                    if Self.startsDefinition(i, in: bytes) {
                        inHeader = true
                    } else if !inHeader {
                        headerEnded = false
                    }
                    if inHeader { headerEnded = false }
                }
                lineHasCode = true
                codeSeen = true
                lastCode = byte
            }
            i += 1
        }
        return out
    }

    /// Whether only string prefix letters (`r`, `b`, `u`, `f`) stand between the line's start
    /// (after indentation) and the quote at `index`.
    private static func onlyPrefixBefore(_ index: Int, in bytes: [UInt8]) -> Bool {
        var j = index - 1
        while j >= 0, "rRbBuUfF".utf8.contains(bytes[j]) { j -= 1 }
        while j >= 0, bytes[j] == UInt8(ascii: " ") || bytes[j] == UInt8(ascii: "\t") { j -= 1 }
        return j < 0 || bytes[j] == UInt8(ascii: "\n")
    }

    /// Whether a `def`, `async def` or `class` statement starts at `index`.
    private static func startsDefinition(_ index: Int, in bytes: [UInt8]) -> Bool {
        for keyword in ["def ", "async def ", "class "] {
            let word = Array(keyword.utf8)
            if index + word.count <= bytes.count, Array(bytes[index..<index + word.count]) == word { return true }
        }
        return false
    }
}
