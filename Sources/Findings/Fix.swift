/// A proposed change that resolves a finding: what to do, and optionally the exact edit.
public struct Fix: Sendable, Codable, Hashable {
    /// One text replacement: the region to delete and the text to insert there.
    public struct Replacement: Sendable, Codable, Hashable {
        /// The file to edit; `nil` means the finding's own file.
        public var file: String?
        public var startLine: Int
        public var startColumn: Int
        public var endLine: Int
        /// Column just past the replaced text on `endLine`.
        public var endColumn: Int
        /// The text that replaces the region (may be empty: a deletion).
        public var text: String

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

    public init(description: String, replacements: [Replacement] = []) {
        self.description = description
        self.replacements = replacements
    }
}
