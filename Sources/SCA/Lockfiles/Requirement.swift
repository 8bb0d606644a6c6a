/// One PEP 508 requirement as written in requirements files and pdm/uv metadata:
/// `name[extras] specifiers ; markers` plus pip's per-line `--hash` options.
///
/// Parsed with integer indices over a byte buffer: requirements files can have tens of
/// thousands of lines and this runs once per line, also in debug builds.
struct Requirement {
    var name = ""
    /// Comma-separated extras, as written without spaces.
    var extras = ""
    /// The specifier set without spaces (`>=1.0,<2`), empty when there is none.
    var specifier = ""
    /// The exact version when the specifier pins one (`==1.2.3` without wildcard, or `===`).
    var pin: String?
    var markers = ""
    var hashes: [String] = []
    /// The URL of a `name @ url` direct reference.
    var url: String?

    init?(_ text: ArraySlice<UInt8>) {
        guard let parsed = text.withUnsafeBufferPointer({ Requirement(buffer: $0) }) else { return nil }
        self = parsed
    }

    private init() {}

    private init?(buffer b: UnsafeBufferPointer<UInt8>) {
        self.init()
        var start = 0
        var end = b.count
        Requirement.trim(b, &start, &end)
        // Per-requirement options start at the first whitespace followed by "--".
        var k = start
        while k + 2 < end {
            if Requirement.isSpace(b[k]), b[k + 1] == 0x2D, b[k + 2] == 0x2D {
                hashes = Requirement.hashes(b, from: k, to: end)
                end = k
                Requirement.trim(b, &start, &end)
                break
            }
            k += 1
        }
        var i = start
        guard i < end, Requirement.isAlphanumeric(b[i]) else { return nil }
        while i < end, Requirement.isNameByte(b[i]) { i += 1 }
        name = Requirement.string(b, start, i)
        while i < end, Requirement.isSpace(b[i]) { i += 1 }
        if i < end, b[i] == UInt8(ascii: "[") {
            var close = i + 1
            while close < end, b[close] != UInt8(ascii: "]") { close += 1 }
            guard close < end else { return nil }
            var extraBytes: [UInt8] = []
            for j in (i + 1)..<close where !Requirement.isSpace(b[j]) { extraBytes.append(b[j]) }
            extras = String(decoding: extraBytes, as: UTF8.self)
            i = close + 1
            while i < end, Requirement.isSpace(b[i]) { i += 1 }
        }
        if i < end, b[i] == UInt8(ascii: "@") {
            // A URL may contain ';', so markers need whitespace before the semicolon here.
            var urlStart = i + 1
            var urlEnd = end
            Requirement.trim(b, &urlStart, &urlEnd)
            var j = urlStart
            var markerStart: Int?
            while j < urlEnd {
                if Requirement.isSpace(b[j]) {
                    var n = j
                    while n < urlEnd, Requirement.isSpace(b[n]) { n += 1 }
                    if n < urlEnd, b[n] == UInt8(ascii: ";") {
                        markerStart = n + 1
                        break
                    }
                }
                j += 1
            }
            url = Requirement.string(b, urlStart, markerStart == nil ? urlEnd : j)
            if let markerStart {
                var ms = markerStart
                var me = urlEnd
                Requirement.trim(b, &ms, &me)
                markers = Requirement.string(b, ms, me)
            }
            return
        }
        var specEnd = end
        var semicolon = i
        while semicolon < end, b[semicolon] != UInt8(ascii: ";") { semicolon += 1 }
        if semicolon < end {
            var ms = semicolon + 1
            var me = end
            Requirement.trim(b, &ms, &me)
            markers = Requirement.string(b, ms, me)
            specEnd = semicolon
        }
        var specStart = i
        Requirement.trim(b, &specStart, &specEnd)
        if specEnd - specStart >= 2, b[specStart] == UInt8(ascii: "("), b[specEnd - 1] == UInt8(ascii: ")") {
            specStart += 1
            specEnd -= 1
        }
        guard parseSpecifiers(b, specStart, specEnd) else { return nil }
    }

    /// `op version` clauses separated by commas; false when a clause is not one.
    private mutating func parseSpecifiers(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Bool {
        var lo = from
        var hi = to
        Requirement.trim(b, &lo, &hi)
        if lo == hi { return true }
        var out: [UInt8] = []
        var clauseStart = lo
        while clauseStart <= hi {
            var clauseEnd = clauseStart
            while clauseEnd < hi, b[clauseEnd] != UInt8(ascii: ",") { clauseEnd += 1 }
            var s = clauseStart
            var e = clauseEnd
            Requirement.trim(b, &s, &e)
            var j = s
            while j < e, Requirement.isOperator(b[j]) { j += 1 }
            let opLength = j - s
            guard opLength >= 1, opLength <= 3, Requirement.isKnownOperator(b, s, j) else { return false }
            var vs = j
            var ve = e
            Requirement.trim(b, &vs, &ve)
            guard vs < ve else { return false }
            var wildcard = false
            for v in vs..<ve {
                if Requirement.isSpace(b[v]) { return false }
                if b[v] == UInt8(ascii: "*") { wildcard = true }
            }
            if !out.isEmpty { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: b[s..<j]))
            out.append(contentsOf: UnsafeBufferPointer(rebasing: b[vs..<ve]))
            let exact = opLength == 3 || (opLength == 2 && b[s] == UInt8(ascii: "=") && !wildcard)
            if exact, pin == nil { pin = Requirement.string(b, vs, ve) }
            clauseStart = clauseEnd + 1
        }
        specifier = String(decoding: out, as: UTF8.self)
        return true
    }

    private static func isKnownOperator(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> Bool {
        let eq = UInt8(ascii: "=")
        switch e - s {
        case 1: return b[s] == UInt8(ascii: "<") || b[s] == UInt8(ascii: ">")
        // The first byte is already an operator byte: `==`, `!=`, `<=`, `>=`, `~=`.
        case 2: return b[s + 1] == eq
        case 3: return b[s] == eq && b[s + 1] == eq && b[s + 2] == eq
        default: return false
        }
    }

    /// Values of `--hash=X` and `--hash X` among the options.
    private static func hashes(_ b: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> [String] {
        var words: [(Int, Int)] = []
        var i = from
        while i < to {
            while i < to, isSpace(b[i]) { i += 1 }
            let s = i
            while i < to, !isSpace(b[i]) { i += 1 }
            if i > s { words.append((s, i)) }
        }
        let flag = Array("--hash".utf8)
        func isFlag(_ s: Int, _ e: Int) -> Bool {
            guard e - s >= flag.count else { return false }
            for k in 0..<flag.count where b[s + k] != flag[k] { return false }
            return true
        }
        var out: [String] = []
        var w = 0
        while w < words.count {
            let (s, e) = words[w]
            if isFlag(s, e) {
                if e - s == flag.count, w + 1 < words.count {
                    out.append(string(b, words[w + 1].0, words[w + 1].1))
                    w += 1
                } else if e - s > flag.count, b[s + flag.count] == UInt8(ascii: "=") {
                    out.append(string(b, s + flag.count + 1, e))
                }
            }
            w += 1
        }
        return out
    }

    /// URLs, VCS references, local paths and archive names: installable but unversioned.
    static func isDirectReference(_ text: ArraySlice<UInt8>) -> Bool {
        let s = String(decoding: text, as: UTF8.self)
        return s.contains("://") || s.hasPrefix("git+") || s.hasPrefix("hg+") || s.hasPrefix("svn+")
            || s.hasPrefix("bzr+")
            || s.hasPrefix("./") || s.hasPrefix("../") || s.hasPrefix("/") || s.hasPrefix("~")
            || s.hasSuffix(".whl") || s.hasSuffix(".tar.gz") || s.hasSuffix(".zip") || s == "."
    }

    private static func string(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: b[s..<e]), as: UTF8.self)
    }

    private static func trim(_ b: UnsafeBufferPointer<UInt8>, _ s: inout Int, _ e: inout Int) {
        while s < e, isSpace(b[s]) { s += 1 }
        while e > s, isSpace(b[e - 1]) { e -= 1 }
    }

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }

    static func isNameByte(_ c: UInt8) -> Bool {
        isAlphanumeric(c) || c == UInt8(ascii: ".") || c == UInt8(ascii: "-") || c == UInt8(ascii: "_")
    }

    static func isAlphanumeric(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39)
    }

    static func isOperator(_ c: UInt8) -> Bool {
        c == UInt8(ascii: "=") || c == UInt8(ascii: "<") || c == UInt8(ascii: ">") || c == UInt8(ascii: "!")
            || c == UInt8(ascii: "~")
    }
}
