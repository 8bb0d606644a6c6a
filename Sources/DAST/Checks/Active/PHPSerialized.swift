/// PHP `serialize()` strings: recognised by shape (`a:2:{…}`, `O:4:"User":…`, `s:5:"hello";`) and
/// rewritten with every string value replaced, lengths recomputed.
enum PHPSerialized {
    /// `text` with each `s:N:"…";` holding `marker`, nil when `text` is not a serialised value.
    static func replacingStrings(in text: String, with marker: String) -> String? {
        guard text.count < 65536, let first = text.first, "aOsC".contains(first), text.dropFirst().hasPrefix(":"),
            text.hasSuffix("}") || text.hasSuffix(";")
        else { return nil }
        var output = ""
        var rest = Substring(text)
        var replaced = false
        while let start = rest.range(of: "s:") {
            output += rest[..<start.lowerBound]
            let afterPrefix = rest[start.upperBound...]
            let digits = afterPrefix.prefix { $0.isNumber }
            guard let length = Int(digits), afterPrefix.dropFirst(digits.count).hasPrefix(":\"") else {
                output += "s:"
                rest = afterPrefix
                continue
            }
            let valueStart = afterPrefix.dropFirst(digits.count + 2)
            let utf8 = valueStart.utf8
            guard utf8.count >= length + 2,
                let end = utf8.index(utf8.startIndex, offsetBy: length, limitedBy: utf8.endIndex),
                valueStart[end...].hasPrefix("\";")
            else { return nil }
            output += "s:\(marker.utf8.count):\"\(marker)\";"
            replaced = true
            rest = valueStart[end...].dropFirst(2)
        }
        output += rest
        return replaced ? output : nil
    }
}
