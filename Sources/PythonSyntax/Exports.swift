/// Positions (`SourceLocation`, `SourceRange`) live in SourcePositions, shared with the other
/// languages' parsers; every user of a Python tree reads them, so this module brings them along.
@_exported import SourcePositions
/// The tree Python's parser builds is the one every language lowers into (SyntaxTree); users of
/// a Python tree read its nodes, kinds and queries, so this module brings it along too.
@_exported import SyntaxTree
import Support

/// Python's former name for the shared tree's node (``SyntaxNode``); transitional, until the
/// engine's files are renamed in one mechanical change.
public typealias PyNode = SyntaxNode
/// Python's former name for the shared tree's kinds (``SyntaxKind``); transitional.
public typealias PyNodeKind = SyntaxKind
/// Python's former name for the large-stack runner (``LargeStack``); transitional.
public typealias PyLargeStack = LargeStack
