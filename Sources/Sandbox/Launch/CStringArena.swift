#if canImport(Glibc)
    import Glibc
#endif

/// Owns C copies of strings for the duration of one launch; freed together.
final class CStringArena {
    private var allocations: [UnsafeMutablePointer<CChar>] = []

    func copy(_ text: String) -> UnsafePointer<CChar> {
        let pointer = strdup(text)!
        allocations.append(pointer)
        return UnsafePointer(pointer)
    }

    func copy(_ text: String?) -> UnsafePointer<CChar>? {
        text.map { copy($0) }
    }

    /// A NULL-terminated array of C strings (argv, envp).
    func array(_ texts: [String]) -> UnsafeMutablePointer<UnsafePointer<CChar>?> {
        let array = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: texts.count + 1)
        for (index, text) in texts.enumerated() { array[index] = copy(text) }
        array[texts.count] = nil
        arrays.append(UnsafeMutableRawPointer(array))
        return array
    }

    /// A C copy of `values`, valid while the arena lives.
    func buffer<T>(_ values: [T]) -> UnsafeMutablePointer<T> {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: max(1, values.count))
        if !values.isEmpty { pointer.initialize(from: values, count: values.count) }
        arrays.append(UnsafeMutableRawPointer(pointer))
        return pointer
    }

    private var arrays: [UnsafeMutableRawPointer] = []

    deinit {
        for pointer in allocations { free(pointer) }
        for pointer in arrays { pointer.deallocate() }
    }
}
