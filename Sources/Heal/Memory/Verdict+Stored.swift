extension Verdict {
    /// A memory row's verdict. Rows are only written from a `Verdict`; other text (a row edited
    /// by hand) counts as failed, so it is never replayed as a fix.
    init(stored text: String?) {
        self = text.flatMap(Verdict.init(rawValue:)) ?? .failed
    }
}
