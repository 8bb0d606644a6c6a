import Support

/// One libFuzzer input: the first byte picks the reader variant, the rest is the document.
public struct FuzzInput {
    /// Which variant of the target's readers runs (the first byte, 0 when empty).
    public let selector: UInt8
    /// The bytes the reader sees.
    public let bytes: [UInt8]

    /// Splits libFuzzer's buffer.
    public init(_ data: UnsafePointer<UInt8>?, _ count: Int) {
        guard let data, count > 0 else {
            selector = 0
            bytes = []
            return
        }
        let all = UnsafeBufferPointer(start: data, count: count)
        selector = all[0]
        bytes = Array(all.dropFirst())
    }

    /// `bytes` as text the way readers that take `String` get it (lossy UTF-8).
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// The contract every reader keeps: it returns a value or throws its typed error
/// (`SentinelError` unless `typed` says otherwise). Any other error traps here, so libFuzzer
/// records the input; a trap inside the reader is a crash anyway.
public func survive<T>(
    _ label: String, typed: (any Error) -> Bool = { $0 is SentinelError }, _ body: () throws -> T
) {
    do {
        _ = try body()
    } catch let error where typed(error) {
        return
    } catch {
        fatalError("\(label): threw an untyped error: \(error)")
    }
}
