import ArgumentParser
import DAST

/// One `--dast-checks` value: comma-separated rule ids (`dast.` optional), each with a leading
/// `-` to leave it out. A value naming a rule no check reports is ArgumentParser's usage error,
/// listing the ids, as `--tools` does.
struct WebCheckList: ExpressibleByArgument, Sendable {
    /// The value as given: `WebCheckSelection` reads every occurrence of the option together.
    let text: String

    init?(argument: String) {
        guard (try? WebCheckSelection(parsing: [argument])) != nil else { return nil }
        text = argument
    }

    /// Every check's rule id, sorted.
    static var allValueStrings: [String] { Set(WebRules.all.map(\.id)).sorted() }
}
