import PythonSyntax

/// Two neighbouring statements in the wrong order: `total += x` before `x = read()`, a value printed
/// before it is updated. The one-line statement starting on the line trades places with the one
/// after it, then with the one before it, in the same block. Statements that bind or read nothing
/// of each other commute, so the swap of those is not proposed.
public struct SwapStatementsTemplate: RepairTemplate {
    /// `swap-statements`.
    public let name = "swap-statements"
    /// See ``RepairTemplates/standard``.
    public let prior: Double
    /// Statement kinds that hold a block: moving one is more than an order slip.
    static let compound: Set<SyntaxKind> = [
        .if, .for, .asyncFor, .while, .try, .tryStar, .match, .with, .asyncWith, .functionDef, .asyncFunctionDef, .classDef,
    ]

    /// The template with `prior`.
    public init(prior: Double = 0.3) { self.prior = prior }

    /// The statement on `line` swapped with its next, then its previous, one-line neighbour.
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        var out: [RepairEdit] = []
        let blocks: Set<SyntaxKind> = [.block, .module]
        file.module.root.walk { node in
            guard node.range.start.line <= line, line <= node.range.end.line else { return false }
            guard blocks.contains(node.kind) else { return true }
            let statements = node.children
            guard let index = statements.firstIndex(where: { $0.range.start.line == line && $0.kind.isStatement }),
                Self.movable(statements[index], in: file)
            else { return true }
            for (rank, neighbour) in [index + 1, index - 1].enumerated()
            where statements.indices.contains(neighbour) && Self.movable(statements[neighbour], in: file) {
                let (first, second) = (statements[min(index, neighbour)], statements[max(index, neighbour)])
                guard Self.dependent(first, second) else { continue }
                let firstText = file.text(of: first)
                let secondText = file.text(of: second)
                guard firstText != secondText else { continue }
                var edit = file.changing(
                    first.range.start.offset, second.range.end.offset,
                    by: [
                        SourceEdit(start: first.range.start.offset, end: first.range.end.offset, replacement: secondText),
                        SourceEdit(start: second.range.start.offset, end: second.range.end.offset, replacement: firstText),
                    ], line: line)
                edit.rank = rank
                out.append(edit)
            }
            return true
        }
        return out
    }

    /// A simple statement alone on its line (no `;` neighbour), which can move as a line: it starts
    /// at the line's indentation (a simple statement holds no other) and only a comment follows it.
    static func movable(_ statement: SyntaxNode, in file: RepairFile) -> Bool {
        guard statement.kind.isStatement, !compound.contains(statement.kind),
            statement.range.start.line == statement.range.end.line
        else { return false }
        let line = statement.range.start.line
        return statement.range.start.column == file.indentation(ofLine: line).utf8.count + 1
            && file.text(statement.range.end.offset, file.offset(afterLineHolding: statement.range.end.offset))
                .trimmingCharacters(in: .whitespacesAndNewlines).first.map { $0 == "#" } ?? true
    }

    /// Whether the order of `first` and `second` can matter: one of them writes a name the other
    /// reads or writes, or both call something (either may have effects, output among them).
    static func dependent(_ first: SyntaxNode, _ second: SyntaxNode) -> Bool {
        let (a, b) = (names(in: first), names(in: second))
        if a.calls && b.calls { return true }
        return !a.all.intersection(b.all).isEmpty
    }

    /// Every name a statement mentions, and whether it calls anything.
    static func names(in statement: SyntaxNode) -> (all: Set<String>, calls: Bool) {
        var all: Set<String> = []
        var calls = false
        statement.walk { node in
            if node.kind == .name, let name = node.text { all.insert(name) }
            if node.kind == .call { calls = true }
            return true
        }
        return (all, calls)
    }
}
