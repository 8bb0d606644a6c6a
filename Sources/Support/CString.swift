extension String {
    /// Decodes a NUL-terminated C buffer (as filled by a C API) as UTF-8, replacing bad bytes.
    public init(nulTerminated buffer: [CChar]) {
        let end = buffer.firstIndex(of: 0) ?? buffer.endIndex
        self = String(decoding: buffer[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
