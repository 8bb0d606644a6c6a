#if canImport(Glibc)
    import Glibc
#endif

/// The process's environment read straight from `environ`: `ProcessInfo.environment` builds a
/// fresh dictionary through Foundation at every call (~0.45 M instructions), which the
/// launcher's hot path did five times for single variables.
public enum ProcessEnvironment {
    /// The value of `name`, or nil when it is unset.
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Every variable; for a name given twice, the first (as `getenv` answers).
    public static func all() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(text[..<equals])
                if result[name] == nil { result[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return result
    }
}
