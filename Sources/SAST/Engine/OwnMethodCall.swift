import PythonSyntax

/// A rule names a library's API by its method (`$RESP.set_cookie(...)`, `$CTX.verify_mode`); a
/// call `self.name(...)` where the file's class hierarchy defines `name` runs the project's own
/// method instead (`self.set_cookie(handler, token)` in a class whose subclass defines a
/// `set_cookie` that sets the flags itself). Such a match is not the API: the project's
/// definition is matched where it is written, and what it calls is judged there.
enum OwnMethodCall {
    /// Whether the node spanning `range` is a call on `self` or `cls` of a method the enclosing
    /// class, its bases or its subclasses in this file define. `bytes` (the file's) rule out most
    /// matches before the tree is walked: the text must start with `self.`, `cls.` or `this.`.
    static func isOwn(_ range: SourceRange, root: SyntaxNode, model: FileModel, bytes: [UInt8]) -> Bool {
        let start = range.start.offset
        guard !model.classes.isEmpty, start >= 0, start < bytes.count,
            bytes[start...].starts(with: Array("self.".utf8)) || bytes[start...].starts(with: Array("cls.".utf8))
                || bytes[start...].starts(with: Array("this.".utf8))
        else { return false }
        // The statement around a call spans what the call does: the call is the node within.
        var spanning = root.outermostNode(spanning: range)
        while let node = spanning, node.kind != .call, node.children.count == 1, node.children[0].range == node.range {
            spanning = node.children[0]
        }
        guard let call = spanning, call.kind == .call, let callee = call.children.first,
            callee.kind == .attribute, let method = callee.text, let receiver = callee.children.first,
            receiver.kind == .name, Receivers.contains(receiver.text),
            let owner = root.enclosingDefinitions(containing: range.start).last(where: { $0.kind == .classDef }),
            let className = owner.text
        else { return false }
        return model.definesMethod(method, forSelfOf: className)
    }

}

extension SyntaxNode {
    /// The outermost node under this one spanning exactly `range` (a match whose metavariable is
    /// unbound, a match's call).
    func outermostNode(spanning range: SourceRange) -> SyntaxNode? {
        var found: SyntaxNode?
        walk { node in
            if found != nil { return false }
            if node.range.start.offset == range.start.offset && node.range.end.offset == range.end.offset {
                found = node
                return false
            }
            return node.range.start.offset <= range.start.offset && node.range.end.offset >= range.end.offset
        }
        return found
    }
}
