import Web

/// URLs written in inline scripts: `http(s)://` URLs anywhere, and root-relative `"/path"`
/// string literals (API endpoints that only JavaScript requests). A light scan, not a parser:
/// it finds candidates for the crawler, which checks scope before requesting anything.
enum ScriptURLs {
    /// The longest candidate kept (longer strings are data, not links).
    static let maxLength = 2_048

    /// Candidates in `range` of `bytes`, in order, at most `limit`.
    static func candidates(_ bytes: [UInt8], in range: Range<Int>, limit: Int) -> [String] {
        var found: [String] = []
        var scanner = JSScanner()
        var index = range.lowerBound
        var stringStart: Int?
        while index < range.upperBound, found.count < limit {
            if bytes[index] == UInt8(ascii: "h"), outsideLiterals(scanner.state),
                let url = absolute(bytes, at: index, end: range.upperBound)
            {
                found.append(url)
                index += url.utf8.count
                continue
            }
            let before = scanner.state
            index = scanner.step(bytes, index)
            switch (before, scanner.state) {
            case (.code, .string), (.code, .template): stringStart = index
            case (.string, .code), (.template, .code):
                if let start = stringStart, let url = literal(bytes[start..<min(index - 1, range.upperBound)]) {
                    found.append(url)
                }
                stringStart = nil
            default: break
            }
        }
        return found
    }

    /// Code and comments, where URLs are read as they stand (literals are read whole).
    private static func outsideLiterals(_ state: JSScanner.State) -> Bool {
        switch state {
        case .code, .lineComment, .blockComment: return true
        default: return false
        }
    }

    /// An `http://` or `https://` URL starting at `index` in code or a comment, up to the first
    /// byte that cannot be part of it (or a `*/` closing the comment).
    private static func absolute(_ bytes: [UInt8], at index: Int, end: Int) -> String? {
        guard HTMLBytes.hasPrefix(bytes, at: index, "http://") || HTMLBytes.hasPrefix(bytes, at: index, "https://") else {
            return nil
        }
        var cursor = index
        while cursor < end, cursor - index < maxLength, isURLByte(bytes[cursor]),
            !HTMLBytes.hasPrefix(bytes, at: cursor, "*/")
        {
            cursor += 1
        }
        while cursor > index, ".,;:!?".utf8.contains(bytes[cursor - 1]) { cursor -= 1 }
        return String(decoding: bytes[index..<cursor], as: UTF8.self)
    }

    /// The text of a string literal when it is an absolute or root-relative URL (`\/` unescaped,
    /// as JSON writes slashes).
    private static func literal(_ slice: ArraySlice<UInt8>) -> String? {
        guard slice.count >= 2, slice.count <= maxLength else { return nil }
        var bytes: [UInt8] = []
        var index = slice.startIndex
        while index < slice.endIndex {
            if slice[index] == UInt8(ascii: "\\"), index + 1 < slice.endIndex, slice[index + 1] == UInt8(ascii: "/") {
                index += 1
            }
            guard isURLByte(slice[index]) else { return nil }
            bytes.append(slice[index])
            index += 1
        }
        let rootRelative =
            bytes.count >= 2 && bytes[0] == UInt8(ascii: "/") && bytes[1] != UInt8(ascii: "/")
            && bytes[1] != UInt8(ascii: "*")
        let absolute = HTMLBytes.hasPrefix(bytes, at: 0, "http://") || HTMLBytes.hasPrefix(bytes, at: 0, "https://")
        return rootRelative || absolute ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// Printable ASCII that may appear in a URL as pages write it (no quotes, brackets of
    /// markup or templates, backslashes or whitespace).
    private static func isURLByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && !"\"'<>`\\{}|^()".utf8.contains(byte)
    }
}
