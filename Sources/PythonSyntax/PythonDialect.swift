/// Which Python grammar a file is read with.
///
/// Python 3 is the grammar; the Python 2 dialect is that grammar plus Python 2's own statements and
/// literals (`print x`, `exec code in ns`, `except E, e:`, `raise E, msg`, backticks, `<>`, `0777`,
/// `10L`, `ur''`, tuple parameters), each read as the Python 3 tree that means the same: a call of
/// `print`, `exec` or `repr`, `except E as e:`, `raise E(msg)`, `!=`. Rules and dataflow see one
/// tree shape whichever dialect parsed the file.
public enum PythonDialect: String, Sendable, Hashable {
    /// Python 3.12 (the default, and the only one for rule patterns).
    case python3
    /// Python 2, tried only when the Python 3 parse fails on Python 2 syntax.
    case python2
}
