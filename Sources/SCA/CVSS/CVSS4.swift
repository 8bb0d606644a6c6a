import Support

/// A CVSS v4.0 vector with its score computed as the FIRST specification defines it: the vector
/// falls in one of 270 macro vectors (six equivalence classes, EQ1–EQ6), whose expert-assigned
/// score is looked up (`CVSS4Tables.macroScores`) and then lowered by the mean of how far the
/// vector sits, within each class, from that class's most severe vectors.
///
/// Threat (`E`) and environmental metrics are honoured when the vector has them; absent, they
/// take the spec's worst-case defaults (`E:A`, `CR/IR/AR:H`), which gives the base score.
public struct CVSS4: Sendable, Hashable {
    /// The metrics as given (`AV` → `N`); `X` values are dropped.
    public let metrics: [String: String]
    /// The vector as given.
    public let vector: String

    /// The allowed values of every metric, in the spec's order.
    static let allowed: [(String, Set<String>)] = [
        ("AV", ["N", "A", "L", "P"]), ("AC", ["L", "H"]), ("AT", ["N", "P"]), ("PR", ["N", "L", "H"]),
        ("UI", ["N", "P", "A"]), ("VC", ["H", "L", "N"]), ("VI", ["H", "L", "N"]), ("VA", ["H", "L", "N"]),
        ("SC", ["H", "L", "N"]), ("SI", ["H", "L", "N"]), ("SA", ["H", "L", "N"]),
        ("E", ["X", "A", "P", "U"]),
        ("CR", ["X", "H", "M", "L"]), ("IR", ["X", "H", "M", "L"]), ("AR", ["X", "H", "M", "L"]),
        ("MAV", ["X", "N", "A", "L", "P"]), ("MAC", ["X", "L", "H"]), ("MAT", ["X", "N", "P"]),
        ("MPR", ["X", "N", "L", "H"]), ("MUI", ["X", "N", "P", "A"]),
        ("MVC", ["X", "H", "L", "N"]), ("MVI", ["X", "H", "L", "N"]), ("MVA", ["X", "H", "L", "N"]),
        ("MSC", ["X", "H", "L", "N"]), ("MSI", ["X", "S", "H", "L", "N"]), ("MSA", ["X", "S", "H", "L", "N"]),
        ("S", ["X", "N", "P"]), ("AU", ["X", "N", "Y"]), ("R", ["X", "A", "U", "I"]),
        ("V", ["X", "D", "C"]), ("RE", ["X", "L", "M", "H"]), ("U", ["X", "Clear", "Green", "Amber", "Red"]),
    ]
    static let baseNames = ["AV", "AC", "AT", "PR", "UI", "VC", "VI", "VA", "SC", "SI", "SA"]

    /// Parses `CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N[/E:…]`.
    public init(_ vector: String) throws {
        let text = vector.trimmingASCIISpaces()
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.first == "CVSS:4.0" else {
            throw SentinelError(.invalidInput, "CVSS vector \(vector): does not start with CVSS:4.0")
        }
        let allowed = Dictionary(uniqueKeysWithValues: Self.allowed)
        var metrics = [String: String]()
        for part in parts.dropFirst() {
            let kv = part.split(separator: ":", omittingEmptySubsequences: false)
            guard kv.count == 2 else { throw SentinelError(.invalidInput, "CVSS vector \(vector): bad part \"\(part)\"") }
            let key = String(kv[0]), value = String(kv[1])
            guard let values = allowed[key] else {
                throw SentinelError(.invalidInput, "CVSS vector \(vector): unknown metric \(key)")
            }
            guard values.contains(value) else {
                throw SentinelError(.invalidInput, "CVSS vector \(vector): \(key) cannot be \(value)")
            }
            guard metrics.updateValue(value, forKey: key) == nil else {
                throw SentinelError(.invalidInput, "CVSS vector \(vector): metric \(key) repeated")
            }
        }
        let missing = Self.baseNames.filter { metrics[$0] == nil }
        guard missing.isEmpty else {
            throw SentinelError(.invalidInput, "CVSS vector \(vector): missing \(missing.joined(separator: ", "))")
        }
        self.metrics = metrics.filter { $0.value != "X" }
        self.vector = text
    }

    /// The effective value of a metric: a modified (`M…`) value overrides the base one; absent
    /// threat and requirement metrics take their worst case.
    func effective(_ name: String) -> String {
        if let modified = metrics["M" + name] { return modified }
        if let value = metrics[name] { return value }
        switch name {
        case "E": return "A"
        case "CR", "IR", "AR": return "H"
        default: return ""
        }
    }

    /// The macro vector: one digit per equivalence class, EQ1…EQ6.
    var macroVector: [Int] {
        let m = effective
        let eq1: Int
        if m("AV") == "N" && m("PR") == "N" && m("UI") == "N" {
            eq1 = 0
        } else if (m("AV") == "N" || m("PR") == "N" || m("UI") == "N") && m("AV") != "P" {
            eq1 = 1
        } else {
            eq1 = 2
        }
        let eq2 = m("AC") == "L" && m("AT") == "N" ? 0 : 1
        let eq3: Int
        if m("VC") == "H" && m("VI") == "H" {
            eq3 = 0
        } else if m("VC") == "H" || m("VI") == "H" || m("VA") == "H" {
            eq3 = 1
        } else {
            eq3 = 2
        }
        let eq4: Int
        if m("SI") == "S" || m("SA") == "S" {
            eq4 = 0
        } else if m("SC") == "H" || m("SI") == "H" || m("SA") == "H" {
            eq4 = 1
        } else {
            eq4 = 2
        }
        let eq5 = ["A": 0, "P": 1, "U": 2][m("E")] ?? 0
        let eq6 =
            (m("CR") == "H" && m("VC") == "H") || (m("IR") == "H" && m("VI") == "H")
                || (m("AR") == "H" && m("VA") == "H") ? 0 : 1
        return [eq1, eq2, eq3, eq4, eq5, eq6]
    }

    /// The score, 0.0–10.0, rounded half up to one decimal.
    public var score: Double {
        let m = effective
        // No impact on any system: the spec's shortcut.
        if ["VC", "VI", "VA", "SC", "SI", "SA"].allSatisfy({ m($0) == "N" }) { return 0 }
        let macro = macroVector
        guard let value = CVSS4Tables.score(macro) else { return 0 }
        let (eq1, eq2, eq3, eq4, eq5, eq6) = (macro[0], macro[1], macro[2], macro[3], macro[4], macro[5])

        // The score of the next lower macro vector in each class (nil where there is none).
        func lower(_ change: (inout [Int]) -> Void) -> Double? {
            var next = macro
            change(&next)
            return CVSS4Tables.score(next)
        }
        let lowerEQ1 = lower { $0[0] += 1 }
        let lowerEQ2 = lower { $0[1] += 1 }
        let lowerEQ3EQ6: Double?
        switch (eq3, eq6) {
        case (0, 0):
            // Two ways down (00 → 01 or 00 → 10): the higher-scoring one.
            let left = lower { $0[5] += 1 }, right = lower { $0[2] += 1 }
            lowerEQ3EQ6 = [left, right].compactMap { $0 }.max()
        case (1, 0): lowerEQ3EQ6 = lower { $0[5] += 1 }
        case (0, 1), (1, 1): lowerEQ3EQ6 = lower { $0[2] += 1 }
        default:
            lowerEQ3EQ6 = lower {
                $0[2] += 1; $0[5] += 1
            }
        }
        let lowerEQ4 = lower { $0[3] += 1 }
        let lowerEQ5 = lower { $0[4] += 1 }

        // The first of the class's most severe vectors that this vector is not above anywhere.
        let distances =
            CVSS4Tables.highestVectors(eq1: eq1, eq2: eq2, eq3: eq3, eq6: eq6, eq4: eq4, eq5: eq5)
            .lazy.map { highest in
                Dictionary(
                    uniqueKeysWithValues: CVSS4Tables.levels.map { name, levels in
                        (name, (levels[m(name)] ?? 0) - (levels[highest[name] ?? ""] ?? 0))
                    })
            }
            .first { $0.values.allSatisfy { $0 >= 0 } } ?? [:]
        func sum(_ names: [String]) -> Double { Double(names.reduce(0) { $0 + (distances[$1] ?? 0) }) }

        // Each class moves the score toward its next lower macro vector by the fraction of the
        // class's depth this vector lies below its highest vector; the mean of those moves counts.
        let classes: [(lowerScore: Double?, distance: Double, depth: Double)] = [
            (lowerEQ1, sum(["AV", "PR", "UI"]), CVSS4Tables.depthEQ1[eq1]),
            (lowerEQ2, sum(["AC", "AT"]), CVSS4Tables.depthEQ2[eq2]),
            (lowerEQ3EQ6, sum(["VC", "VI", "VA", "CR", "IR", "AR"]), CVSS4Tables.depthEQ3EQ6(eq3, eq6)),
            (lowerEQ4, sum(["SC", "SI", "SA"]), CVSS4Tables.depthEQ4[eq4]),
            (lowerEQ5, 0, 1),  // EQ5's distance is always 0
        ]
        var total = 0.0, existing = 0
        for entry in classes {
            guard let lowerScore = entry.lowerScore else { continue }
            existing += 1
            total += (value - lowerScore) * (entry.distance / entry.depth)
        }
        let mean = existing == 0 ? 0 : total / Double(existing)
        let raw = min(max(value - mean, 0), 10)
        // Round half up; the epsilon keeps a half stored as x.x4999… from rounding down.
        return (raw * 10 + 0.5 + 1e-6).rounded(.down) / 10
    }

    /// The qualitative rating of the score.
    public var severity: AdvisorySeverity { AdvisorySeverity(score: score) }
}
