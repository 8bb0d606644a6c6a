/// Positions (`SourceLocation`, `SourceRange`) live in SourcePositions, shared with the other
/// languages' parsers; every user of a Python tree reads them, so this module brings them along.
@_exported import SourcePositions
