import PythonSyntax

/// Reads another local instead: `return lo` → `return hi`, `total += x` → `total += y`. The
/// alternatives are the enclosing function's parameters and assigned names.
public struct ReplaceVariableTemplate: RepairTemplate {
    /// `replace-variable`.
    public let name = "replace-variable"
    /// See ``RepairTemplates/standard``.
    public let prior: Double
    /// Most names replaced per line, and most alternatives tried per name.
    static let maximumNames = 8
    /// Most alternatives tried per name, in order of first appearance in the function.
    static let maximumAlternatives = 6

    /// A template with `prior`.
    public init(prior: Double = 0.3) { self.prior = prior }

    /// Each read of a local on `line` replaced by each other local.
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        guard let function = file.enclosingFunction(ofLine: line) else { return [] }
        let locals = file.locals(of: function)
        let stores = file.storeOffsets(in: function)
        var out: [RepairEdit] = []
        var names = 0
        for node in file.nodes(onLine: line) where node.kind == .name && node.range.start.line == line {
            guard let name = node.text, locals.contains(name), !stores.contains(node.range.start.offset) else { continue }
            names += 1
            if names > Self.maximumNames { break }
            for other in locals.filter({ $0 != name }).prefix(Self.maximumAlternatives) {
                out.append(file.replacing(node.range.start.offset, node.range.end.offset, with: other, line: line))
            }
        }
        return out
    }
}
