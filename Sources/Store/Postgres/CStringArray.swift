#if canImport(Glibc)
    import Glibc
#endif

/// NUL-terminated copies of Swift strings, alive for one call: libpq's keyword/value and parameter
/// arrays.
enum CStringArray {
    /// Calls `body` with a pointer to `strings` as C strings, followed by a NULL terminator.
    static func with<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result) -> Result {
        with(optional: strings.map { Optional($0) } + [nil], body)
    }

    /// Calls `body` with a pointer to `strings` as C strings, nil ones as NULL pointers.
    static func with<Result>(optional strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result) -> Result {
        let copies: [UnsafeMutablePointer<CChar>?] = strings.map { string in string.map { strdup($0) } ?? nil }
        defer { for copy in copies { free(copy) } }
        let pointers = copies.map { UnsafePointer($0) }
        return pointers.withUnsafeBufferPointer { buffer in
            // An empty parameter list still needs a valid pointer.
            guard let base = buffer.baseAddress else {
                var none: UnsafePointer<CChar>? = nil
                return withUnsafePointer(to: &none) { body($0) }
            }
            return body(base)
        }
    }
}
