import Autonomy
import Testing

@Suite struct RiskTests {
    /// The quietest change of `action`: one line in one file, fully covered, a perfect record,
    /// so each test below moves one term away from zero.
    static func quiet(_ action: ActionClass = .dependencyBump) -> RiskInputs {
        RiskInputs(
            action: action, changedLines: 2, files: ["requirements.txt"], changedLinesCovered: 2, changedLinesTotal: 2,
            sensitiveAreas: [], actorSuccessRate: 1)
    }

    @Test(arguments: [
        (ActionClass.dependencyBump, 0.05), (.ruleFix, 0.10), (.logicRepair, 0.20), (.llmPatch, 0.30),
    ])
    func eachActionClassHasItsBase(action: ActionClass, base: Double) {
        let risk = Risk.score(Self.quiet(action))
        #expect(risk.value == base)
        #expect(risk.inputs == ["action": base, "size": 0, "files": 0, "coverage": 0, "sensitive": 0, "memory": 0])
    }

    @Test(arguments: [(0, 0.0), (2, 0.0), (3, 0.01), (12, 0.10), (22, 0.20), (500, 0.20), (-5, 0.0)])
    func eachChangedLineBeyondTwoAddsAHundredthUpToAFifth(lines: Int, added: Double) {
        var inputs = Self.quiet()
        inputs.changedLines = lines
        #expect(Risk.score(inputs).inputs["size"] == added)
    }

    @Test(arguments: [(1, 0.0), (2, 0.05), (4, 0.15), (10, 0.15)])
    func eachFileBeyondOneAddsAFiftiethUpToFifteenHundredths(files: Int, added: Double) {
        var inputs = Self.quiet()
        inputs.files = (0..<files).map { "f\($0).py" }
        #expect(Risk.score(inputs).inputs["files"] == added)
    }

    @Test func aFileNamedTwiceCountsOnce() {
        var inputs = Self.quiet()
        inputs.files = ["a.py", "a.py"]
        #expect(Risk.score(inputs).inputs["files"] == 0)
    }

    @Test(arguments: [
        (Int?.some(10), Int?.some(10), 0.0), (5, 10, 0.075), (0, 10, 0.15), (nil, nil, 0.10), (3, nil, 0.10),
        (nil, 4, 0.10), (0, 0, 0.0), (12, 10, 0.0),
    ])
    func uncoveredChangedLinesAddUpToFifteenHundredthsAndUnknownCoverageATenth(
        covered: Int?, total: Int?, added: Double
    ) {
        var inputs = Self.quiet()
        inputs.changedLinesCovered = covered
        inputs.changedLinesTotal = total
        #expect(Risk.score(inputs).inputs["coverage"] == added)
    }

    @Test(arguments: [([String](), 0.0), (["crypto"], 0.10), (["crypto", "auth"], 0.20), (["crypto", "auth", "network"], 0.20)])
    func eachSensitiveAreaAddsATenthUpToAFifth(areas: [String], added: Double) {
        var inputs = Self.quiet()
        inputs.sensitiveAreas = areas + areas  // repeated areas count once
        #expect(Risk.score(inputs).inputs["sensitive"] == added)
    }

    @Test(arguments: [(Double?.some(1), 0.0), (0.5, 0.05), (0, 0.10), (nil, 0.05), (2, 0.0), (Double.nan, 0.05)])
    func aPoorRecordAddsUpToATenthAndNoRecordAHalfTenth(rate: Double?, added: Double) {
        var inputs = Self.quiet()
        inputs.actorSuccessRate = rate
        #expect(Risk.score(inputs).inputs["memory"] == added)
    }

    @Test func theValueIsTheSumRoundedToTwoDecimals() {
        let inputs = RiskInputs(
            action: .ruleFix, changedLines: 9, files: ["a.py", "b.py"], changedLinesCovered: 1, changedLinesTotal: 3,
            sensitiveAreas: ["auth"], actorSuccessRate: 0.5)
        let risk = Risk.score(inputs)
        // 0.10 + 0.07 + 0.05 + 0.15 × 2/3 + 0.10 + 0.05 = 0.47
        #expect(risk.inputs["coverage"] == 0.1)
        #expect(risk.value == 0.47 && risk.level == .medium)
    }

    @Test func everythingAtOnceIsClampedToOne() {
        let inputs = RiskInputs(
            action: .llmPatch, changedLines: 400, files: (0..<9).map { "f\($0).py" }, changedLinesCovered: 0,
            changedLinesTotal: 400, sensitiveAreas: ["auth", "crypto", "network"], actorSuccessRate: 0)
        let risk = Risk.score(inputs)
        #expect(risk.inputs.values.reduce(0, +) > 1.09)
        #expect(risk.value == 1 && risk.level == .high)
    }

    @Test(arguments: [
        (0.0, RiskLevel.low), (0.33, .low), (0.3399, .low), (0.34, .medium), (0.66, .medium), (0.67, .high), (1, .high),
    ])
    func levelsChangeAt34And67Hundredths(value: Double, level: RiskLevel) {
        #expect(RiskLevel(value: value) == level)
    }

    @Test func levelCeilingsAreTheirLargestTwoDecimalValues() {
        for level in RiskLevel.allCases {
            #expect(RiskLevel(value: level.ceiling) == level)
        }
        #expect(RiskLevel(value: RiskLevel.low.ceiling + 0.01) == .medium)
        #expect(RiskLevel(value: RiskLevel.medium.ceiling + 0.01) == .high)
        #expect(RiskLevel.low < .medium && RiskLevel.medium < .high)
    }

    /// Scores that land on a boundary after rounding take the level of the rounded value.
    @Test func aScoreOnABoundaryTakesTheHigherLevel() {
        // 0.20 + 0.09 + 0.05 = 0.34 exactly once rounded.
        let inputs = RiskInputs(
            action: .logicRepair, changedLines: 11, files: ["a.py"], changedLinesCovered: 4, changedLinesTotal: 4,
            actorSuccessRate: nil)
        let risk = Risk.score(inputs)
        #expect(risk.value == 0.34 && risk.level == .medium)
    }

    @Test func aCoveredOneLineBumpWithAGoodRecordIsLow() {
        let inputs = RiskInputs(
            action: .dependencyBump, changedLines: 2, files: ["requirements.txt"], changedLinesCovered: 2,
            changedLinesTotal: 2, sensitiveAreas: [], actorSuccessRate: 0.9)
        let risk = Risk.score(inputs)
        #expect((0.05...0.10).contains(risk.value) && risk.level == .low)
    }

    @Test func aFortyLineModelPatchInUncoveredCryptoCodeIsHigh() {
        let areas = SensitiveCode.areas(
            changedText: ["+    digest = hashlib.md5(data).hexdigest()"], paths: ["app/crypto/sign.py"], cwes: [327])
        let inputs = RiskInputs(
            action: .llmPatch, changedLines: 40, files: ["app/crypto/sign.py"], changedLinesCovered: 0,
            changedLinesTotal: 40, sensitiveAreas: areas, actorSuccessRate: nil)
        let risk = Risk.score(inputs)
        #expect(areas == ["crypto"])
        #expect(risk.value == 0.8 && risk.level == .high)
    }
}

@Suite struct SensitiveCodeRiskTests {
    @Test(arguments: [
        (327, "crypto"), (295, "crypto"), (916, "crypto"), (798, "auth"), (352, "auth"), (1004, "auth"), (918, "network"),
        (601, "network"),
    ])
    func cweIdsNameTheirArea(cwe: Int, area: String) {
        #expect(SensitiveCode.areas(changedText: [], paths: [], cwes: [cwe]) == [area])
    }

    @Test func unlistedCwesNameNoArea() {
        #expect(SensitiveCode.areas(changedText: [], paths: [], cwes: [79, 89, 22]).isEmpty)
    }

    @Test(arguments: [
        ("src/auth/views.py", ["auth"]), ("app/login.py", ["auth"]), ("app/user_session.py", ["auth"]),
        ("lib/AuthService.java", ["auth"]), ("app/oauth2/callback.py", ["auth"]), ("app/permissions.py", ["auth"]),
        ("pkg/crypto/aes.go", ["crypto"]), ("certs/README", ["crypto"]), ("app/tls_config.py", ["crypto"]),
        ("app/http/client.py", ["network"]), ("svc/api/v1/items.py", ["network"]), ("src/auth/http.py", ["auth", "network"]),
    ])
    func pathWordsNameTheirArea(path: String, areas: [String]) {
        #expect(SensitiveCode.areas(changedText: [], paths: [path], cwes: []) == areas)
    }

    @Test(arguments: [
        "app/author.py", "app/authority/x.py", "docs/encryption-faq.md", "app/tokenizer.py", "app/netflix.py",
        "app/clients_list.py", "src/keyset.py", "app/apis.py",
    ])
    func pathWordsMatchWholeWordsNotSubstrings(path: String) {
        // `clients`, `apis` and `keyset` are other words than `client`, `api` and `keys`.
        #expect(SensitiveCode.areas(changedText: [], paths: [path], cwes: []).isEmpty)
    }

    @Test(arguments: [
        ("import hashlib", ["crypto"]), ("from cryptography.fernet import Fernet", ["crypto"]),
        ("from Crypto.Cipher import AES", ["crypto"]), ("token = jwt.encode(payload, key)", ["crypto"]),
        ("r = requests.get(url, timeout=5)", ["network"]), ("conn = http.client.HTTPSConnection(host)", ["network"]),
        ("+import socket", ["network"]), ("user = authenticate(request, username=u)", ["auth"]),
        ("    user.set_password(raw)", ["auth"]), ("if check_password(p, h) and csrf.verify():", ["auth"]),
        ("s = requests.session()", ["auth", "network"]),
    ])
    func changedLinesNameAreasByIdentifier(line: String, areas: [String]) {
        #expect(SensitiveCode.areas(changedText: [line], paths: [], cwes: []) == areas)
    }

    @Test(arguments: [
        "@login_required", "sessions = []", "hashlib_compat = None", "my_socket_pool.close()", "x = myrequests",
        "print('http client')", "client.http_get()", "crypto = 1", "Session()", "version = 1.5",
    ])
    func identifiersMatchWholeNamesNotSubstrings(line: String) {
        // `http client` in a string is two words, not `http.client`; names are case-sensitive.
        #expect(SensitiveCode.areas(changedText: [line], paths: [], cwes: []).isEmpty, "\(line)")
    }

    @Test func allSourcesCombineSortedAndUnique() {
        let areas = SensitiveCode.areas(
            changedText: ["import ssl", "import socket"], paths: ["src/auth/tls.py"], cwes: [327, 287, 918])
        #expect(areas == ["auth", "crypto", "network"])
    }
}
