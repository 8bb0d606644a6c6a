import ArgumentParser
import Store

/// `--retry CLASS=ATTEMPTS[:BASE[:CAP]]` of `fleet worker`: one failure class's retry rule
/// (`RetryRule.parse`); a bad value is ArgumentParser's usage error.
struct RetryRuleArgument: ExpressibleByArgument {
    let failure: FailureClass
    let rule: RetryRule
    /// The words as given: a worker started as root passes them on to its analysis.
    let text: String

    init?(argument: String) {
        guard let (failure, rule) = RetryRule.parse(argument) else { return nil }
        self.failure = failure
        self.rule = rule
        self.text = argument
    }

    static var allValueStrings: [String] { [] }
}
