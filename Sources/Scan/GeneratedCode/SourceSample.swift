import Support

/// A bounded look at one file: its first and last bytes and its size, or the whole file. Every
/// detector reads only this, so classifying a file costs at most `headBytes + tailBytes` read
/// and one pass over them, whatever the file's size.
struct SourceSample: Sendable, Hashable {
    /// How much of a file's beginning is read: its banner, its header comment, a bundler's
    /// prelude and the first stretch of its code's shape.
    static let headBytes = 32 << 10
    /// How much of a file's end is read: a source map trailer, a chunk's exports, the last stretch
    /// of its code's shape.
    static let tailBytes = 8 << 10

    /// The file's first bytes (all of it when `isWhole`).
    var head: [UInt8]
    /// The file's last bytes; empty when `head` is the whole file.
    var tail: [UInt8]
    /// The file's size in bytes.
    var size: Int

    /// A sample of the file `ends` describes.
    init(_ ends: FileEnds) {
        head = ends.head
        tail = ends.tail
        size = ends.size
    }

    /// The whole of `bytes` (a revision's file, a small file, a test's text).
    init(whole bytes: [UInt8]) {
        head = bytes
        tail = []
        size = bytes.count
    }

    /// A sample of `bytes` as a read of its two ends would take it.
    init(bounding bytes: [UInt8]) {
        guard bytes.count > Self.headBytes + Self.tailBytes else {
            self.init(whole: bytes)
            return
        }
        self.init(
            FileEnds(
                head: Array(bytes[..<Self.headBytes]), tail: Array(bytes[(bytes.count - Self.tailBytes)...]),
                size: bytes.count))
    }

    /// Whether the sample holds the whole file.
    var isWhole: Bool { tail.isEmpty && head.count == size }

    /// The stretches read, in file order: the head, then the tail when there is one.
    var parts: [[UInt8]] { tail.isEmpty ? [head] : [head, tail] }

    /// The last bytes of the file the sample holds (the tail, else the end of the head).
    var end: ArraySlice<UInt8> { tail.isEmpty ? head[...] : tail[...] }
}
