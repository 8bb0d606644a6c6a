import Documents

/// One alert as ZAP's `core/view/alerts` returns it (every field a string there). Only the
/// fields Sentinel maps are kept; they are ZAP's words, not yet cleaned (see
/// `ZAPAlertMapping`).
public struct ZAPAlert: Sendable, Hashable {
    /// The scan rule that raised it (`10038`).
    public var pluginId: String
    /// The rule plus variant (`10038-1`).
    public var alertRef: String
    /// The alert's title (`Content Security Policy (CSP) Header Not Set`).
    public var name: String
    /// `High`, `Medium`, `Low` or `Informational`.
    public var risk: String
    /// `Confirmed`, `High`, `Medium`, `Low` or `False Positive`.
    public var confidence: String
    /// The request URL.
    public var url: String
    /// The request method.
    public var method: String
    /// The parameter, header or cookie concerned; empty when none.
    public var param: String
    /// What ZAP sent to provoke it; empty for passive alerts.
    public var attack: String
    /// What in the response shows it.
    public var evidence: String
    /// The CWE id, `0` or absent when ZAP names none.
    public var cweId: Int
    /// The WASC threat class id, `0` when none.
    public var wascId: Int
    /// Reference URLs, newline-separated.
    public var reference: String
    /// How to fix it.
    public var solution: String
    /// What the problem is.
    public var description: String
    /// The HTTP message in ZAP's history.
    public var messageId: String

    /// Makes an alert from its fields; see the properties.
    public init(
        pluginId: String, alertRef: String = "", name: String, risk: String, confidence: String, url: String,
        method: String = "", param: String = "", attack: String = "", evidence: String = "", cweId: Int = 0,
        wascId: Int = 0, reference: String = "", solution: String = "", description: String = "", messageId: String = ""
    ) {
        self.pluginId = pluginId
        self.alertRef = alertRef
        self.name = name
        self.risk = risk
        self.confidence = confidence
        self.url = url
        self.method = method
        self.param = param
        self.attack = attack
        self.evidence = evidence
        self.cweId = cweId
        self.wascId = wascId
        self.reference = reference
        self.solution = solution
        self.description = description
        self.messageId = messageId
    }

    /// Reads one element of `alerts`; `nil` when it is not an object or has no `pluginId` or
    /// `url` (nothing to identify or locate it by). Numbers written as numbers are accepted too.
    public init?(_ node: DocumentNode) {
        guard node.isObject, let pluginId = node["pluginId"]?.scalarText, !pluginId.isEmpty,
            let url = node["url"]?.string, !url.isEmpty
        else { return nil }
        func text(_ key: String) -> String { node[key]?.scalarText ?? "" }
        self.init(
            pluginId: pluginId, alertRef: text("alertRef"), name: node["name"]?.string ?? text("alert"),
            risk: text("risk"), confidence: text("confidence"), url: url, method: text("method"), param: text("param"),
            attack: text("attack"), evidence: text("evidence"), cweId: Int(text("cweid")) ?? 0,
            wascId: Int(text("wascid")) ?? 0, reference: text("reference"), solution: text("solution"),
            description: text("description"), messageId: text("messageId"))
    }
}
