/// Minified code: what a minifier prints (jQuery's `jquery.min.js`, a hashed Vite chunk, a
/// production webpack bundle) puts nearly all of a file's code on a few very long lines with
/// almost no whitespace. A person's file, however long, has many short lines; one long line in
/// it (an embedded image, a data table) does not make it minified, because its other lines
/// still count.
///
/// Measured over the code lines of the sample (blank lines and lines of comment alone, such as
/// a license banner, do not count): it is minified when
/// - the long lines (`longLine` bytes or more) hold at least 80% of the code's bytes,
/// - whitespace is under 10% of those long lines' bytes (minified code keeps spaces only in
///   strings and between keywords; a long line of prose or of `1, 2, 3` has far more),
/// - code's punctuation (`;{}()=`) is at least 4% of those bytes: a minifier's lines are
///   statements, calls and blocks run together, while a long line of data (an SVG path drawn
///   by a component, a base64 image) has almost none, and
/// - the short code lines number at most `maxShortLines`, or no more than the long ones.
struct MinifiedShape: Sendable, Hashable {
    /// A line this long is one no formatter leaves in a person's code (Prettier and ESLint's
    /// `max-len` stop at 80, Black at 88). Most minifiers print lines of many kilobytes, but
    /// Closure Compiler, which builds Google's loaders and libraries, breaks its output near
    /// 500 columns (its `DEFAULT_LINE_LENGTH_THRESHOLD`) wherever a break may go, so its lines
    /// run from a few hundred bytes to just past 500: a bound at 500 let every such file be
    /// analysed as a person's. The other three conditions, not this length, keep long lines of
    /// data and prose out.
    static let longLine = 250
    /// Short code lines a minified file may still have: a `"use strict";`, a chunk's imports, a
    /// wrapper's first and last lines.
    static let maxShortLines = 16

    /// Code lines shorter than `longLine`.
    var shortLines = 0
    /// Code lines of `longLine` bytes or more.
    var longLines = 0
    /// Bytes on code lines.
    var codeBytes = 0
    /// Bytes on long code lines.
    var longBytes = 0
    /// Spaces and tabs on long code lines.
    var longWhitespace = 0
    /// Code punctuation (`;{}()=`) on long code lines.
    var longPunctuation = 0

    /// The shape of the code in `sample`, one pass over the bytes read.
    init(_ sample: SourceSample) {
        for part in sample.parts { measure(part) }
    }

    /// Whether the sample's code is minified, as the type's comment describes.
    var isMinified: Bool {
        longLines > 0 && longBytes * 5 >= codeBytes * 4 && longWhitespace * 10 < longBytes
            && longPunctuation * 25 >= longBytes && shortLines <= max(Self.maxShortLines, longLines)
    }

    /// Whether `sample`'s code is minified.
    static func matches(_ sample: SourceSample) -> Bool { MinifiedShape(sample).isMinified }

    /// Adds the lines of one stretch of the file. A block comment's state starts afresh in each
    /// stretch: the tail may begin inside one, and a line wrongly taken for code only adds a
    /// short line, which makes the file look less minified, never more.
    private mutating func measure(_ bytes: [UInt8]) {
        var inComment = false
        var start = 0
        bytes.withUnsafeBufferPointer { buffer in
            let count = buffer.count
            while start < count {
                var end = start
                var whitespace = 0
                var punctuation = 0
                while end < count && buffer[end] != 0x0A {
                    switch buffer[end] {
                    case 0x20, 0x09: whitespace += 1
                    case UInt8(ascii: ";"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "("), UInt8(ascii: ")"),
                        UInt8(ascii: "="):
                        punctuation += 1
                    default: break
                    }
                    end += 1
                }
                if Self.holdsCode(buffer, from: start, to: end, inComment: &inComment) {
                    let length = end - start
                    codeBytes += length
                    if length >= Self.longLine {
                        longLines += 1
                        longBytes += length
                        longWhitespace += whitespace
                        longPunctuation += punctuation
                    } else {
                        shortLines += 1
                    }
                }
                start = end + 1
            }
        }
    }

    /// Whether the line `start..<end` holds anything but blanks and comments, following a block
    /// comment that began on an earlier line. Only what opens the line is read: a comment that
    /// opens after code is not followed (a line wrongly taken for code only adds a short line).
    private static func holdsCode(
        _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, inComment: inout Bool
    ) -> Bool {
        var i = start
        while i < end {
            let byte = buffer[i]
            if inComment {
                if byte == UInt8(ascii: "*"), i + 1 < end, buffer[i + 1] == UInt8(ascii: "/") {
                    inComment = false
                    i += 2
                } else {
                    i += 1
                }
                continue
            }
            if byte == 0x20 || byte == 0x09 || byte == 0x0D {
                i += 1
                continue
            }
            guard byte == UInt8(ascii: "/"), i + 1 < end else { return true }
            if buffer[i + 1] == UInt8(ascii: "/") { return false }
            guard buffer[i + 1] == UInt8(ascii: "*") else { return true }
            inComment = true
            i += 2
        }
        return false
    }
}
