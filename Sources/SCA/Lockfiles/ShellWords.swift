/// A requirements file's options as pip splits them: Python's `shlex.split` in POSIX mode
/// (whitespace separates words; single quotes keep everything; double quotes keep all but `\`
/// before `\`, `"`, `$` and a backtick; a backslash outside quotes keeps the next character).
/// `-r "sub dir/reqs.txt"` names `sub dir/reqs.txt`, as pip reads it.
enum ShellWords {
    /// The words of `text`; nil where shlex raises (an unclosed quote, a trailing backslash).
    static func split(_ text: String) -> [String]? {
        var words: [String] = []
        var word = ""
        var inWord = false
        var iterator = text.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            switch scalar {
            case " ", "\t", "\n", "\r":
                if inWord { words.append(word) }
                word = ""
                inWord = false
            case "'":
                inWord = true
                var closed = false
                while let next = iterator.next() {
                    if next == "'" {
                        closed = true
                        break
                    }
                    word.unicodeScalars.append(next)
                }
                guard closed else { return nil }
            case "\"":
                inWord = true
                var closed = false
                while let next = iterator.next() {
                    if next == "\"" {
                        closed = true
                        break
                    }
                    if next == "\\" {
                        guard let escaped = iterator.next() else { return nil }
                        if !["\\", "\"", "$", "`"].contains(escaped) { word.unicodeScalars.append("\\") }
                        word.unicodeScalars.append(escaped)
                        continue
                    }
                    word.unicodeScalars.append(next)
                }
                guard closed else { return nil }
            case "\\":
                guard let escaped = iterator.next() else { return nil }
                inWord = true
                word.unicodeScalars.append(escaped)
            default:
                inWord = true
                word.unicodeScalars.append(scalar)
            }
        }
        if inWord { words.append(word) }
        return words
    }
}
