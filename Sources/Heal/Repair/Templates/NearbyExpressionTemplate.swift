import PythonSyntax

/// A variable read where an element written just above was meant: `x = i` → `x = A[i]` after
/// `if A[i] > A[i + 1]:`, `count += B` → `count += L[i]` after `if L[i] <= B:` (the index, or the
/// bound, instead of the value). The alternatives are the subscripts `a[…]` (no slices) on the
/// line and the few lines above it in the same scope, closest first (``RepairEdit/rank``).
public struct NearbyExpressionTemplate: RepairTemplate {
    /// `nearby-expression`.
    public let name = "nearby-expression"
    /// See ``RepairTemplates/standard``.
    public let prior: Double
    /// How far above the line subscripts are collected.
    static let window = 5
    /// Most names replaced per line, and most subscripts tried per name.
    static let maximumNames = 6
    static let maximumAlternatives = 4

    /// The template with `prior`.
    public init(prior: Double = 0.3) { self.prior = prior }

    /// Each name read on `line` replaced by a nearby subscript.
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        let scope = file.scope(ofLine: line)
        let stores = file.storeOffsets(in: scope)
        let first = scope.kind == .module ? 1 : scope.range.start.line
        var subscripts: [SyntaxNode] = []
        for statement in file.body(of: scope) {
            statement.walk { node in
                guard node.range.start.line <= line, node.range.end.line >= max(first, line - Self.window) else {
                    return false
                }
                if node.kind == .subscript, node.range.start.line == node.range.end.line,
                    node.range.start.line >= line - Self.window, node.children[1].kind != .slice
                {
                    subscripts.append(node)
                }
                return !RepairFile.scopeKinds.contains(node.kind)
            }
        }
        // Closest first; one of each spelling.
        var seen = Set<String>()
        let nearby = subscripts.sorted { line - $0.range.start.line < line - $1.range.start.line }.filter {
            seen.insert(file.text(of: $0)).inserted
        }
        let reads = file.nodes(onLine: line).filter {
            $0.kind == .name && $0.range.start.line == line && !stores.contains($0.range.start.offset)
        }
        var out: [RepairEdit] = []
        for name in reads.prefix(Self.maximumNames) {
            let alternatives = nearby.filter { element in
                // Not the name's own subscript (`A[i]` for the `A` or the `i` in it).
                !(element.range.start.offset <= name.range.start.offset && name.range.end.offset <= element.range.end.offset)
                    && file.text(of: element.children[0]) != name.text
            }
            for (rank, element) in alternatives.prefix(Self.maximumAlternatives).enumerated() {
                var edit = file.replacing(
                    name.range.start.offset, name.range.end.offset, with: file.text(of: element), line: line)
                edit.rank = rank
                out.append(edit)
            }
        }
        return out
    }
}
