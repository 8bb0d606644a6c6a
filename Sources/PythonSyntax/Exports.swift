/// Positions (`SourceLocation`, `SourceRange`) live in SourcePositions, shared with the other
/// languages' parsers; every user of a Python tree reads them, so this module brings them along.
@_exported import SourcePositions
/// The tree Python's parser builds is the one every language lowers into (SyntaxTree); users of
/// a Python tree read its nodes, kinds and queries, so this module brings it along too.
@_exported import SyntaxTree
