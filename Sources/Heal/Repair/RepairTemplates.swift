/// The templates `heal` tries, and their priors.
public enum RepairTemplates {
    /// Every template with its prior. The priors are judgement, not measurements: one-token slips
    /// at boundaries and in operators are the commonest small bugs, so they come first; edits that
    /// insert code or swap variables come last, because they often make a weak test pass without
    /// being the fix (an early `return 0` silences the failing case), so they should be tried only
    /// after the likelier ones:
    ///
    /// | template | prior |
    /// |---|---|
    /// | comparison operator | 0.9 |
    /// | off by one | 0.8 |
    /// | slice bounds | 0.7 |
    /// | arithmetic operator | 0.7 |
    /// | negate condition | 0.6 |
    /// | `and` ↔ `or` | 0.6 |
    /// | initial value | 0.6 |
    /// | drop condition | 0.5 |
    /// | return value | 0.5 |
    /// | missing return | 0.5 |
    /// | missing guard | 0.4 |
    /// | swap arguments | 0.4 |
    /// | two neighbouring statements swapped | 0.3 |
    /// | replace variable | 0.3 |
    /// | augmented assignment written out (`x *= 2 + 1` → `x = x * 2 + 1`) | 0.5 |
    /// | a literal that should be a variable (`range(10)` → `range(n)`) | 0.3 |
    /// | a variable that should be a nearby subscript (`x = i` → `x = A[i]`) | 0.3 |
    /// | `break` that should end a script (`exit()`) | 0.3 |
    /// | `int` / `float` / `str` for one another | 0.3 |
    ///
    /// For programs judged by what they print:
    ///
    /// | template | prior |
    /// |---|---|
    /// | delete an output statement (`print`) | 0.5 |
    /// | print a bare expression | 0.4 |
    /// | a string literal's case | 0.4 |
    /// | print a sequence's items (`print(*a)`) | 0.3 |
    ///
    /// A prior is for a template's likeliest change at a line. Templates that can tell their
    /// changes apart rank them (``RepairEdit/rank``: replace-variable puts a name of the same kind
    /// used just above first, missing-guard the value the function already returns), and each step
    /// down costs ``RepairGenerator/rankDecay`` (5%), so between equally suspicious lines the
    /// likeliest change of each comes before the second likeliest of any.
    public static let standard: [any RepairTemplate] = [
        ComparisonOperatorTemplate(prior: 0.9),
        OffByOneTemplate(prior: 0.8),
        SliceBoundsTemplate(prior: 0.7),
        ArithmeticOperatorTemplate(prior: 0.7),
        NegateConditionTemplate(prior: 0.6),
        BooleanOperatorTemplate(prior: 0.6),
        InitialValueTemplate(prior: 0.6),
        DropConditionTemplate(prior: 0.5),
        ReturnValueTemplate(prior: 0.5),
        MissingReturnTemplate(prior: 0.5),
        DeleteOutputTemplate(prior: 0.5),
        MissingGuardTemplate(prior: 0.4),
        SwapArgumentsTemplate(prior: 0.4),
        SwapStatementsTemplate(prior: 0.3),
        PrintExpressionTemplate(prior: 0.4),
        StringCaseTemplate(prior: 0.4),
        AugmentedAssignmentTemplate(prior: 0.5),
        ReplaceVariableTemplate(prior: 0.3),
        PrintUnpackedTemplate(prior: 0.3),
        LiteralToVariableTemplate(prior: 0.3),
        NearbyExpressionTemplate(prior: 0.3),
        BreakToExitTemplate(prior: 0.3),
        ConversionTemplate(prior: 0.3),
    ]

    /// The templates aimed by the output a failing test compared (``GuidedRepairTemplate``), with
    /// their priors. Their score is the prior times the most suspicious line's: the printed
    /// difference says more about where the slip is than coverage, which ranks a line every test
    /// runs low. A literal that is a near spelling of an expected word comes first, as nothing
    /// else explains that difference; an argument shift needs two or more numbers off by the same
    /// one before it fires at all:
    ///
    /// | template | prior |
    /// |---|---|
    /// | a printed word spelled as expected | 0.95 |
    /// | delete a `print` of lines not expected | 0.85 |
    /// | print a container's items when its repr was printed | 0.9 |
    /// | shift all printed positions by one | 0.8 |
    /// | drop a `print` argument when more was printed | 0.9 (three ranks lower unless the expected tokens were all printed in a row) |
    public static let guided: [any GuidedRepairTemplate] = [
        ExpectedLiteralTemplate(prior: 0.95),
        ExtraOutputTemplate(prior: 0.85),
        ItemsOutputTemplate(prior: 0.9),
        OneBasedOutputTemplate(prior: 0.8),
        DropPrintArgumentTemplate(prior: 0.9),
    ]
}
