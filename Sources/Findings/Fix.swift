/// A proposed change that resolves a finding: what to do, and optionally the exact edit.
public struct Fix: Sendable, Codable, Hashable {
    /// One text replacement: the region to delete and the text to insert there.
    public struct Replacement: Sendable, Codable, Hashable {
        /// The file to edit; `nil` means the finding's own file.
        public var file: String?
        /// First line of the replaced region, 1-based.
        public var startLine: Int
        /// First column of the replaced region on `startLine`.
        public var startColumn: Int
        /// Last line of the replaced region.
        public var endLine: Int
        /// Column just past the replaced text on `endLine`.
        public var endColumn: Int
        /// The text that replaces the region (may be empty: a deletion).
        public var text: String

        /// Makes a replacement of the region with `text`; `file` nil means the finding's file.
        public init(file: String? = nil, startLine: Int, startColumn: Int, endLine: Int, endColumn: Int, text: String) {
            self.file = file
            self.startLine = startLine
            self.startColumn = startColumn
            self.endLine = endLine
            self.endColumn = endColumn
            self.text = text
        }
    }

    /// What the fix does, for humans ("Use yaml.safe_load").
    public var description: String
    /// The edits; empty when the fix is advice only (e.g. "upgrade to 2.3.1").
    public var replacements: [Replacement]

    /// Makes a fix described by `description`, with exact edits when known.
    public init(description: String, replacements: [Replacement] = []) {
        self.description = description
        self.replacements = replacements
    }
}
