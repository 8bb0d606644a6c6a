/// Which paths an adapter names on the tool's command line: the selected files themselves, or
/// `.` (the whole workspace, filtered afterwards) when listing them would make the command line
/// too long.
public struct ToolTargets: Sendable, Hashable {
    /// Above this many bytes of file names the adapter passes `.` instead.
    public static let argumentBudget = 96 * 1024

    /// Paths relative to `/workspace`, as passed to the tool.
    public let arguments: [String]
    /// When the tool scans `.`, the files whose findings are kept (the selection); `nil` when
    /// the arguments are exactly the selection.
    public let filter: Set<String>?

    /// - Parameter files: the selected files, relative to the scan root.
    public init(files: [String], budget: Int = ToolTargets.argumentBudget) {
        let size = files.reduce(0) { $0 + $1.utf8.count + 1 }
        if size <= budget {
            // `./` keeps a file named `-x.py` from reading as an option.
            arguments = files.map { $0.hasPrefix("-") ? "./" + $0 : $0 }
            filter = nil
        } else {
            arguments = ["."]
            filter = Set(files)
        }
    }

    /// Whether a finding in `file` (relative to the scan root) belongs to the selection.
    public func keeps(_ file: String?) -> Bool {
        guard let filter else { return true }
        return file.map(filter.contains) ?? true
    }
}
