/// What a pull request's scan (`--since BASE`) knows of the base revision for telling generated
/// files: which files the change touches, and the base's bytes of one. A file the change adds
/// or edits is judged by what the base holds, not by what the head says of itself
/// (docs/SECURITY.md §1b).
public struct BaseContents: Sendable {
    /// The files the change adds or edits, relative to the scan's root.
    public var changedFiles: Set<String>
    /// The base revision's bytes of a file (relative to the root); nil when the base has none, or
    /// none that can be read (too large, not a regular file), which is judged as none.
    public var read: @Sendable (String) -> [UInt8]?

    /// The base of a change touching `changedFiles`, whose files `read` returns.
    public init(changedFiles: Set<String>, read: @escaping @Sendable (String) -> [UInt8]?) {
        self.changedFiles = changedFiles
        self.read = read
    }
}
