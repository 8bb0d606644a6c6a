/// A library's license banner at the very top of the file: the comment minifiers and bundlers
/// keep (`/*!`, or one holding `@license`), naming a release and its license,
/// `/*! jQuery v3.7.1 | (c) OpenJS Foundation and other contributors | jquery.org/license */`,
/// `/*!\n * Chart.js v4.4.0\n * (c) 2023 Chart.js Contributors\n * Released under the MIT License`.
/// webpack's license extraction leaves `/*! For license information please see x.js.LICENSE.txt */`
/// in its place, which says the same. A plain `/*` comment counts when it names a full release
/// (`x.y.z`) beside its copyright or license, as unminified releases open
/// (`/*\n *  jQuery OwlCarousel v1.3.3\n *  Copyright (c) 2013 …\n *  Licensed under MIT`): a
/// project's own license header names a license's version (`Version 2.0`, `v3.0`) at most, never
/// a three-part release. A vendored copy of someone else's release: its code is its project's,
/// not this one's.
enum LibraryBanner {
    /// How much of the first comment is read.
    static let window = 768
    /// Words that name a license or a copyright.
    static let licenseWords = ["(c)", "©", "copyright", "license", "licence"]
    /// What webpack's license extraction leaves at the top of a bundle.
    static let extractedLicense = "for license information please see "

    /// Whether `sample` opens with a library's license banner naming a version (or webpack's
    /// pointer to the extracted licenses).
    static func matches(_ sample: SourceSample) -> Bool {
        let head = sample.head.prefix(window * 2)
        guard let open = head.firstIndex(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }),
            head[open...].starts(with: Array("/*".utf8))
        else { return false }
        let body = head[(open + 2)...].prefix(window)
        let close = body.indices.first { body[$0] == UInt8(ascii: "*") && $0 + 1 < body.endIndex && body[$0 + 1] == UInt8(ascii: "/") }
        let text = String(decoding: body[..<(close ?? body.endIndex)], as: UTF8.self).lowercased()
        // A comment minifiers keep (`/*!`, `@license`) may name any version; a plain one a release.
        let kept = body.first == UInt8(ascii: "!") || text.contains("@license")
        if kept && text.contains(extractedLicense) { return true }
        guard licenseWords.contains(where: text.contains) else { return false }
        return kept ? namesVersion(text) : namesRelease(text)
    }

    /// Whether `text` holds a three-part release number (`1.3.3`, `v4.0.0`; parts of at most three
    /// digits), not inside a longer number or word: what a release banner names and a license's
    /// own version (`2.0`) or a date (`10.1.2020`) is not.
    static func namesRelease(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            guard isDigit(bytes[i]),
                i == 0 || !(isLetterOrDigit(bytes[i - 1]) || bytes[i - 1] == UInt8(ascii: ".")) || bytes[i - 1] == UInt8(ascii: "v")
            else {
                i += 1
                continue
            }
            var parts = 0
            var longest = 0
            var j = i
            while j < bytes.count {
                let start = j
                while j < bytes.count && isDigit(bytes[j]) { j += 1 }
                guard j > start else { break }
                parts += 1
                longest = max(longest, j - start)
                guard j + 1 < bytes.count, bytes[j] == UInt8(ascii: "."), isDigit(bytes[j + 1]) else { break }
                j += 1
            }
            let ends =
                j >= bytes.count
                || !(isLetterOrDigit(bytes[j]) || (bytes[j] == UInt8(ascii: ".") && j + 1 < bytes.count && isDigit(bytes[j + 1])))
            // Parts of at most three digits: `10.1.2020` is a date, not a release.
            if parts == 3 && longest <= 3 && ends { return true }
            i = max(j, i + 1)
        }
        return false
    }

    /// Whether `text` holds a version number (`3.7.1`, `v4.4`): digits, a dot, digits, not
    /// inside a longer number.
    static func namesVersion(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        for i in bytes.indices where bytes[i] == UInt8(ascii: ".") && i > 0 && i + 1 < bytes.count {
            guard isDigit(bytes[i - 1]), isDigit(bytes[i + 1]) else { continue }
            var first = i - 1
            while first > 0 && isDigit(bytes[first - 1]) { first -= 1 }
            if first == 0 || (bytes[first - 1] != UInt8(ascii: ".") && !isLetterOrDigit(bytes[first - 1]))
                || bytes[first - 1] == UInt8(ascii: "v")
            {
                return true
            }
        }
        return false
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
    }
}
