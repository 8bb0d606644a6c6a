/// Positions (`SourceLocation`, `SourceRange`) live in SourcePositions, shared with every
/// language's parser; every user of a tree reads them, so this module brings them along.
@_exported import SourcePositions
