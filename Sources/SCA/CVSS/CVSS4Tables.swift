// swift-format-ignore-file
// (The tables are data laid out by hand, row labels in block comments; the formatter keeps off.)
/// The data of the CVSS v4.0 specification (FIRST, section 8 and its reference calculator):
/// macro-vector scores, each class's most severe vectors, and each class's depth.
enum CVSS4Tables {
    /// Scores ×10 of the 270 macro vectors. One row per EQ1 EQ2 EQ3 EQ4 (the comment); the six
    /// columns are EQ5 EQ6 = 00 01 10 11 20 21. -1: no such macro vector (EQ3 = 2 needs EQ6 = 1).
    static let macroScores: [Int] = [
        /* 0000 */ 100,  99,  98,  95,  95,  92,
        /* 0001 */ 100,  96,  93,  87,  91,  81,
        /* 0002 */  93,  90,  89,  80,  81,  68,
        /* 0010 */  98,  95,  95,  92,  90,  84,
        /* 0011 */  93,  92,  89,  81,  81,  65,
        /* 0012 */  88,  80,  78,  70,  69,  48,
        /* 0020 */   -1,  92,   -1,  82,   -1,  72,
        /* 0021 */   -1,  79,   -1,  69,   -1,  50,
        /* 0022 */   -1,  69,   -1,  55,   -1,  27,
        /* 0100 */  99,  97,  95,  92,  92,  85,
        /* 0101 */  95,  91,  90,  83,  84,  71,
        /* 0102 */  92,  81,  82,  71,  72,  53,
        /* 0110 */  95,  93,  92,  85,  85,  73,
        /* 0111 */  92,  82,  80,  72,  70,  59,
        /* 0112 */  84,  70,  71,  52,  50,  30,
        /* 0120 */   -1,  86,   -1,  75,   -1,  52,
        /* 0121 */   -1,  71,   -1,  52,   -1,  29,
        /* 0122 */   -1,  63,   -1,  29,   -1,  17,
        /* 1000 */  98,  95,  94,  87,  91,  81,
        /* 1001 */  94,  89,  86,  74,  77,  64,
        /* 1002 */  87,  75,  74,  63,  63,  49,
        /* 1010 */  94,  89,  88,  77,  76,  67,
        /* 1011 */  86,  76,  74,  58,  59,  50,
        /* 1012 */  72,  57,  57,  52,  52,  25,
        /* 1020 */   -1,  83,   -1,  70,   -1,  54,
        /* 1021 */   -1,  65,   -1,  58,   -1,  26,
        /* 1022 */   -1,  53,   -1,  21,   -1,  13,
        /* 1100 */  95,  90,  88,  76,  76,  70,
        /* 1101 */  90,  77,  75,  62,  61,  53,
        /* 1102 */  77,  66,  68,  59,  52,  30,
        /* 1110 */  89,  78,  76,  67,  62,  58,
        /* 1111 */  74,  59,  57,  57,  47,  23,
        /* 1112 */  61,  52,  57,  29,  24,  16,
        /* 1120 */   -1,  71,   -1,  59,   -1,  30,
        /* 1121 */   -1,  58,   -1,  26,   -1,  15,
        /* 1122 */   -1,  23,   -1,  13,   -1,   6,
        /* 2000 */  93,  87,  86,  72,  75,  58,
        /* 2001 */  86,  74,  74,  61,  56,  34,
        /* 2002 */  70,  54,  52,  40,  40,  22,
        /* 2010 */  85,  75,  74,  55,  62,  51,
        /* 2011 */  72,  57,  55,  41,  46,  19,
        /* 2012 */  53,  36,  34,  19,  19,   8,
        /* 2020 */   -1,  64,   -1,  51,   -1,  20,
        /* 2021 */   -1,  47,   -1,  21,   -1,  11,
        /* 2022 */   -1,  24,   -1,   9,   -1,   4,
        /* 2100 */  88,  75,  73,  53,  60,  50,
        /* 2101 */  73,  55,  59,  40,  41,  20,
        /* 2102 */  54,  43,  45,  22,  20,  11,
        /* 2110 */  75,  55,  58,  45,  40,  21,
        /* 2111 */  61,  51,  48,  18,  20,   9,
        /* 2112 */  46,  18,  17,   7,   8,   2,
        /* 2120 */   -1,  53,   -1,  24,   -1,  14,
        /* 2121 */   -1,  24,   -1,  12,   -1,   5,
        /* 2122 */   -1,  10,   -1,   3,   -1,   1,
    ]

    /// The score of a macro vector (digits EQ1…EQ6); nil when it does not exist.
    static func score(_ macro: [Int]) -> Double? {
        let limits = [3, 2, 3, 3, 3, 2]
        for (digit, limit) in zip(macro, limits) where digit < 0 || digit >= limit { return nil }
        let row = ((macro[0] * 2 + macro[1]) * 3 + macro[2]) * 3 + macro[3]
        let value = macroScores[row * 6 + macro[4] * 2 + macro[5]]
        return value < 0 ? nil : Double(value) / 10
    }

    /// Severity levels of each metric's values: 0 is the most severe; a vector's distance from a
    /// highest vector is the sum of level differences.
    static let levels: [(String, [String: Int])] = [
        ("AV", ["N": 0, "A": 1, "L": 2, "P": 3]), ("PR", ["N": 0, "L": 1, "H": 2]), ("UI", ["N": 0, "P": 1, "A": 2]),
        ("AC", ["L": 0, "H": 1]), ("AT", ["N": 0, "P": 1]),
        ("VC", ["H": 0, "L": 1, "N": 2]), ("VI", ["H": 0, "L": 1, "N": 2]), ("VA", ["H": 0, "L": 1, "N": 2]),
        ("SC", ["H": 1, "L": 2, "N": 3]), ("SI", ["S": 0, "H": 1, "L": 2, "N": 3]), ("SA", ["S": 0, "H": 1, "L": 2, "N": 3]),
        ("CR", ["H": 0, "M": 1, "L": 2]), ("IR", ["H": 0, "M": 1, "L": 2]), ("AR", ["H": 0, "M": 1, "L": 2]),
    ]

    /// The most severe vectors of each class's levels, as metric → value.
    static let highestEQ1: [[String]] = [
        ["AV:N/PR:N/UI:N"], ["AV:A/PR:N/UI:N", "AV:N/PR:L/UI:N", "AV:N/PR:N/UI:P"], ["AV:P/PR:N/UI:N", "AV:A/PR:L/UI:P"],
    ]
    static let highestEQ2: [[String]] = [["AC:L/AT:N"], ["AC:H/AT:N", "AC:L/AT:P"]]
    /// Indexed by EQ3 then EQ6.
    static let highestEQ3EQ6: [[[String]]] = [
        [["VC:H/VI:H/VA:H/CR:H/IR:H/AR:H"], ["VC:H/VI:H/VA:L/CR:M/IR:M/AR:H", "VC:H/VI:H/VA:H/CR:M/IR:M/AR:M"]],
        [["VC:L/VI:H/VA:H/CR:H/IR:H/AR:H", "VC:H/VI:L/VA:H/CR:H/IR:H/AR:H"],
         ["VC:L/VI:H/VA:L/CR:H/IR:M/AR:H", "VC:L/VI:H/VA:H/CR:H/IR:M/AR:M", "VC:H/VI:L/VA:H/CR:M/IR:H/AR:M",
          "VC:H/VI:L/VA:L/CR:M/IR:H/AR:H", "VC:L/VI:L/VA:H/CR:H/IR:H/AR:M"]],
        [[], ["VC:L/VI:L/VA:L/CR:H/IR:H/AR:H"]],
    ]
    static let highestEQ4: [[String]] = [["SC:H/SI:S/SA:S"], ["SC:H/SI:H/SA:H"], ["SC:L/SI:L/SA:L"]]

    /// Every combination of the classes' highest vectors, in the reference order.
    static func highestVectors(eq1: Int, eq2: Int, eq3: Int, eq6: Int, eq4: Int, eq5: Int) -> [[String: String]] {
        var result: [[String: String]] = []
        for a in highestEQ1[eq1] {
            for b in highestEQ2[eq2] {
                for c in highestEQ3EQ6[eq3][eq6] {
                    for d in highestEQ4[eq4] {
                        var metrics: [String: String] = [:]
                        for part in [a, b, c, d].joined(separator: "/").split(separator: "/") {
                            let kv = part.split(separator: ":")
                            metrics[String(kv[0])] = String(kv[1])
                        }
                        result.append(metrics)
                    }
                }
            }
        }
        return result
    }

    /// How many level steps deep each class's levels are (the spec's "max severity" + 1).
    static let depthEQ1: [Double] = [1, 4, 5]
    static let depthEQ2: [Double] = [1, 2]
    static let depthEQ4: [Double] = [6, 5, 4]
    static func depthEQ3EQ6(_ eq3: Int, _ eq6: Int) -> Double {
        [[7, 6], [8, 8], [10, 10]][eq3][eq6]
    }
}
