/// Allow and deny entries, and the decision procedure the proxy applies to every request.
///
/// A request passes when an allow entry covers its name (or literal) and port, no deny
/// entry covers the name or any resolved address, and every resolved address is either
/// public or explicitly named by an allow entry for private space. Deny entries win.
public struct EgressPolicy: Sendable {
    /// Entries that let a destination through, in the order written (the first match is quoted).
    public let allow: [EgressRule]
    /// Entries that refuse a destination whatever the allow entries say.
    public let deny: [EgressRule]

    /// Parses entries; throws `SentinelError(.invalidInput)` naming the first bad one.
    public init(allow: [String], deny: [String] = []) throws {
        self.allow = try allow.map(EgressRule.init)
        self.deny = try deny.map(EgressRule.init)
    }

    /// Wraps already-parsed rules.
    public init(allowRules: [EgressRule], denyRules: [EgressRule] = []) {
        self.allow = allowRules
        self.deny = denyRules
    }

    /// The name stage, before any DNS lookup: denied names are never resolved.
    public func decide(host: EgressHost, port: UInt16) -> EgressDecision {
        if let rule = deny.first(where: { $0.matches(host: host, port: port) }) {
            return .denied("deny \(rule.text)")
        }
        switch host {
        case .name(let name):
            guard let rule = allow.first(where: { $0.matches(name: name, port: port) }) else {
                return .denied(EgressDecision.noRuleMatches)
            }
            return EgressDecision(allowed: true, rule: rule.text)
        case .address(let address):
            let matching = allow.filter { $0.matches(address: address, port: port) }
            guard let first = matching.first else { return .denied(EgressDecision.noRuleMatches) }
            if ReservedRanges.contains(address) {
                guard let explicit = matching.first(where: \.namesReservedSpace) else {
                    return .denied(EgressPolicy.reservedReason(address))
                }
                return EgressDecision(allowed: true, rule: explicit.text)
            }
            return EgressDecision(allowed: true, rule: first.text)
        }
    }

    /// The full decision: the name stage, then every address the name resolved to (the
    /// DNS-rebinding defence). One failing address denies the whole request.
    public func decide(host: EgressHost, port: UInt16, addresses: [IPAddress]) -> EgressDecision {
        let named = decide(host: host, port: port)
        guard named.allowed else { return named }
        guard !addresses.isEmpty else { return .denied("\(host) resolves to no address") }
        for address in addresses {
            if let rule = deny.first(where: { $0.matches(address: address, port: port) }) {
                return .denied("deny \(rule.text)")
            }
            if ReservedRanges.contains(address),
                !allow.contains(where: { $0.namesReservedSpace && $0.matches(address: address, port: port) })
            {
                return .denied(EgressPolicy.reservedReason(address))
            }
        }
        return named
    }

    static func reservedReason(_ address: IPAddress) -> String {
        "private address \(address) not allowed"
    }
}
