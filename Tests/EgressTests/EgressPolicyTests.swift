import Foundation
import Support
import Testing

@testable import Egress

/// Public example addresses appear only as data for the policy: these tests never open a socket.
@Suite("Egress policy")
struct EgressPolicyTests {
    @Test(
        "entries parse to the expected target and ports",
        arguments: [
            ("example.com", EgressRule.Target.name("example.com"), [80, 443]),
            ("Example.COM.:8080", .name("example.com"), [8080]),
            ("example.com:443,80,443", .name("example.com"), [80, 443]),
            ("*.Example.com", .subdomains(of: "example.com"), [80, 443]),
            ("192.0.2.1:8080", .network(IPAddress("192.0.2.1")!, prefix: 32), [8080]),
            ("[::1]:8080", .network(IPAddress("::1")!, prefix: 128), [8080]),
            ("::1", .network(IPAddress("::1")!, prefix: 128), [80, 443]),
            ("10.0.0.0/8", .network(IPAddress("10.0.0.0")!, prefix: 8), [80, 443]),
            ("10.0.0.0/8:22,443", .network(IPAddress("10.0.0.0")!, prefix: 8), [22, 443]),
            ("fd00::/8", .network(IPAddress("fd00::")!, prefix: 8), [80, 443]),
            ("[fd00::/8]:443", .network(IPAddress("fd00::")!, prefix: 8), [443]),
            ("  api.test  ", .name("api.test"), [80, 443]),
        ] as [(String, EgressRule.Target, [UInt16])])
    func parses(entry: String, target: EgressRule.Target, ports: [UInt16]) throws {
        let rule = try EgressRule(entry)
        #expect(rule.target == target)
        #expect(rule.ports == ports)
    }

    @Test(
        "bad entries are rejected with an error naming the entry",
        arguments: [
            "", "*", "*.", "a.*.com", "exa mple.com", "host:0", "host:65536", "host:", "host:80,", "host:http",
            "10.0.0.0/33", "10.0.0.1/8", "10.0.0.0/", "[::1", "[example.com]:80", "[::1]x", "127.1", "0x7f000001",
            "2130706433", "010.0.0.1", "1.2.3.4.5", "fe80::1%eth0", "ünï.example", "a..b", "-:80:90",
        ])
    func rejects(entry: String) {
        do {
            _ = try EgressRule(entry)
            Issue.record("'\(entry)' was accepted")
        } catch let error as SentinelError {
            #expect(error.code == .invalidInput)
            #expect(error.message.contains("'\(entry)'"))
            #expect(!error.message.contains("\n"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("a policy with a bad entry names it")
    func policyNamesBadEntry() {
        #expect(throws: SentinelError(.invalidInput, "egress entry 'bad host': not a valid host name or IP address")) {
            try EgressPolicy(allow: ["ok.test", "bad host"])
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var allow: [String]
        var deny: [String] = []
        var host: String
        var port: UInt16
        /// Resolved addresses; empty means "the host itself" (literals) or a name-stage check.
        var addresses: [String] = []
        var allowed: Bool
        var rule: String
        var testDescription: String { "\(host):\(port) vs \(allow) deny \(deny) → \(rule)" }
    }

    static let public1 = "93.184.216.34"

    @Test(
        "decisions",
        arguments: [
            // Names: case and one trailing dot are normalised; anything else is another name.
            Case(
                allow: ["example.com"], host: "Example.COM.", port: 443, addresses: [public1], allowed: true,
                rule: "example.com"),
            Case(
                allow: ["example.com"], host: "example.com.evil.test", port: 443, addresses: [public1], allowed: false,
                rule: "no rule matches"),
            Case(
                allow: ["example.com"], host: "evil-example.com", port: 443, addresses: [public1], allowed: false,
                rule: "no rule matches"),
            Case(
                allow: ["example.com"], host: "www.example.com", port: 443, addresses: [public1], allowed: false,
                rule: "no rule matches"),
            // Wildcards cover subdomains only.
            Case(
                allow: ["*.example.com"], host: "example.com", port: 443, addresses: [public1], allowed: false,
                rule: "no rule matches"),
            Case(
                allow: ["*.example.com"], host: "a.example.com", port: 443, addresses: [public1], allowed: true,
                rule: "*.example.com"),
            Case(
                allow: ["*.example.com"], host: "a.b.Example.com.", port: 80, addresses: [public1], allowed: true,
                rule: "*.example.com"),
            Case(
                allow: ["*.example.com"], host: "badexample.com", port: 443, addresses: [public1], allowed: false,
                rule: "no rule matches"),
            // Ports.
            Case(
                allow: ["example.com"], host: "example.com", port: 8080, addresses: [public1], allowed: false,
                rule: "no rule matches"),
            Case(
                allow: ["example.com:8443"], host: "example.com", port: 443, addresses: [public1], allowed: false,
                rule: "no rule matches"),
            Case(
                allow: ["example.com:8443,9443"], host: "example.com", port: 9443, addresses: [public1], allowed: true,
                rule: "example.com:8443,9443"),
            // IP literals: a name entry does not cover the name's address, families are distinct.
            Case(allow: ["example.com"], host: public1, port: 443, allowed: false, rule: "no rule matches"),
            Case(allow: ["[::1]:8080"], host: "::1", port: 8080, allowed: true, rule: "[::1]:8080"),
            Case(allow: ["[::1]:8080"], host: "127.0.0.1", port: 8080, allowed: false, rule: "no rule matches"),
            Case(
                allow: ["127.0.0.1:8080"], host: "::ffff:127.0.0.1", port: 8080, allowed: false, rule: "no rule matches"
            ),
            Case(allow: ["127.0.0.1:8080"], host: "127.0.0.1", port: 8080, allowed: true, rule: "127.0.0.1:8080"),
            Case(
                allow: ["::ffff:127.0.0.1"], host: "::ffff:127.0.0.1", port: 80, allowed: true, rule: "::ffff:127.0.0.1"
            ),
            // CIDR boundaries.
            Case(allow: ["10.0.0.0/8:80"], host: "10.255.255.255", port: 80, allowed: true, rule: "10.0.0.0/8:80"),
            Case(allow: ["10.0.0.0/8:80"], host: "11.0.0.0", port: 80, allowed: false, rule: "no rule matches"),
            Case(allow: ["10.0.0.0/8:80"], host: "9.255.255.255", port: 80, allowed: false, rule: "no rule matches"),
            Case(
                allow: ["172.16.0.0/12:80"], host: "172.31.255.255", port: 80, allowed: true, rule: "172.16.0.0/12:80"),
            Case(allow: ["172.16.0.0/12:80"], host: "172.32.0.0", port: 80, allowed: false, rule: "no rule matches"),
            Case(allow: ["fd00::/8"], host: "fdff:ffff::1", port: 443, allowed: true, rule: "fd00::/8"),
            Case(allow: ["fd00::/8"], host: "fe80::1", port: 443, allowed: false, rule: "no rule matches"),
            // Private space needs an entry that names it; a catch-all does not.
            Case(
                allow: ["0.0.0.0/0:80"], host: "10.1.2.3", port: 80, allowed: false,
                rule: "private address 10.1.2.3 not allowed"),
            Case(
                allow: ["0.0.0.0/0:80"], host: "100.64.0.1", port: 80, allowed: false,
                rule: "private address 100.64.0.1 not allowed"),
            Case(
                allow: ["0.0.0.0/0:80"], host: "224.0.0.1", port: 80, allowed: false,
                rule: "private address 224.0.0.1 not allowed"),
            Case(
                allow: ["0.0.0.0/0:80"], host: "0.0.0.0", port: 80, allowed: false,
                rule: "private address 0.0.0.0 not allowed"),
            Case(
                allow: ["0.0.0.0/0:80"], host: "169.254.169.254", port: 80, allowed: false,
                rule: "private address 169.254.169.254 not allowed"),
            Case(allow: ["0.0.0.0/0:80"], host: public1, port: 80, allowed: true, rule: "0.0.0.0/0:80"),
            Case(
                allow: ["::/0"], host: "::ffff:127.0.0.1", port: 80, allowed: false,
                rule: "private address ::ffff:127.0.0.1 not allowed"),
            Case(
                allow: ["::/0"], host: "64:ff9b::a00:1", port: 80, allowed: false,
                rule: "private address 64:ff9b::a00:1 not allowed"),
            Case(allow: ["::/0"], host: "::", port: 80, allowed: false, rule: "private address :: not allowed"),
            Case(
                allow: ["::/0"], host: "fe80::1", port: 80, allowed: false, rule: "private address fe80::1 not allowed"),
            // Deny wins over allow, for names and for resolved addresses.
            Case(
                allow: ["*.example.com"], deny: ["bad.example.com"], host: "bad.example.com", port: 443,
                addresses: [public1], allowed: false, rule: "deny bad.example.com"),
            Case(
                allow: ["*.example.com"], deny: ["bad.example.com"], host: "good.example.com", port: 443,
                addresses: [public1], allowed: true, rule: "*.example.com"),
            Case(
                allow: ["example.com"], deny: ["93.184.216.0/24"], host: "example.com", port: 443, addresses: [public1],
                allowed: false, rule: "deny 93.184.216.0/24"),
            Case(
                allow: ["127.0.0.1:80"], deny: ["127.0.0.0/8:80"], host: "127.0.0.1", port: 80, allowed: false,
                rule: "deny 127.0.0.0/8:80"),
            // DNS rebinding: an allowed public name resolving into private space is denied.
            Case(
                allow: ["public.test"], host: "public.test", port: 443, addresses: ["127.0.0.1"], allowed: false,
                rule: "private address 127.0.0.1 not allowed"),
            Case(
                allow: ["public.test"], host: "public.test", port: 443, addresses: [public1, "10.0.0.1"],
                allowed: false, rule: "private address 10.0.0.1 not allowed"),
            Case(
                allow: ["public.test"], host: "public.test", port: 443, addresses: ["::ffff:169.254.169.254"],
                allowed: false, rule: "private address ::ffff:169.254.169.254 not allowed"),
            Case(
                allow: ["public.test"], host: "public.test", port: 443, addresses: ["::1"], allowed: false,
                rule: "private address ::1 not allowed"),
            Case(
                allow: ["public.test:80", "127.0.0.1:80"], host: "public.test", port: 80, addresses: ["127.0.0.1"],
                allowed: true, rule: "public.test:80"),
            Case(
                allow: ["public.test:80", "127.0.0.1:81"], host: "public.test", port: 80, addresses: ["127.0.0.1"],
                allowed: false, rule: "private address 127.0.0.1 not allowed"),
        ])
    func decides(_ c: Case) throws {
        let policy = try EgressPolicy(allow: c.allow, deny: c.deny)
        let host = try #require(EgressHost(c.host))
        let addresses: [IPAddress]
        if c.addresses.isEmpty, case .address(let literal) = host {
            addresses = [literal]
        } else {
            addresses = try c.addresses.map { try #require(IPAddress($0)) }
        }
        let decision = policy.decide(host: host, port: c.port, addresses: addresses)
        #expect(decision == EgressDecision(allowed: c.allowed, rule: c.rule))
    }

    @Test("a name that is denied by name is denied before any lookup")
    func nameStage() throws {
        let policy = try EgressPolicy(allow: ["ok.test"])
        #expect(
            policy.decide(host: .name("evil.test"), port: 443)
                == EgressDecision(allowed: false, rule: "no rule matches"))
        #expect(policy.decide(host: .name("ok.test"), port: 443).allowed)
        #expect(!policy.decide(host: .name("ok.test"), port: 443, addresses: []).allowed)
    }

    @Test(
        "hosts normalise names and refuse numeric look-alikes",
        arguments: [
            ("Example.COM.", EgressHost.name("example.com") as EgressHost?),
            ("example.com", .name("example.com")),
            ("[::1]", .address(IPAddress("::1")!)),
            ("::1", .address(IPAddress("::1")!)),
            ("127.0.0.1", .address(IPAddress("127.0.0.1")!)),
            ("127.1", nil), ("0x7f.1", nil), ("0x7f000001", nil), ("2130706433", nil), ("0177.0.0.1", nil),
            ("example.com..", nil), (".example.com", nil), ("exa$mple.com", nil), ("[127.0.0.1]", nil), ("", nil),
            (String(repeating: "a", count: 64) + ".test", nil),
        ])
    func hosts(text: String, expected: EgressHost?) {
        #expect(EgressHost(text) == expected)
    }

    @Test(
        "reserved ranges",
        arguments: [
            ("127.0.0.1", true), ("10.0.0.1", true), ("172.15.255.255", false), ("172.16.0.0", true),
            ("192.168.1.1", true), ("169.254.169.254", true), ("100.64.0.0", true), ("100.128.0.0", false),
            ("224.0.0.1", true), ("8.8.8.8", false), ("::1", true), ("::", true), ("fc00::1", true),
            ("fe80::1", true), ("2001:db8::1", false), ("::ffff:127.0.0.1", true), ("::ffff:8.8.8.8", false),
            ("::127.0.0.1", true), ("2002:7f00:1::", true), ("64:ff9b::169.254.169.254", true),
        ])
    func reserved(address: String, expected: Bool) throws {
        #expect(ReservedRanges.contains(try #require(IPAddress(address))) == expected)
    }

    @Test("records encode the status-json fields and format the denial line")
    func recordEncoding() throws {
        let record = EgressRecord(
            host: "evil.example", port: 443, allowed: false, rule: "no rule matches", protocol: .connect, bytesOut: 3,
            bytesIn: 4)
        #expect(record.denialLine == "sentinel: egress denied: evil.example:443 (no rule matches)")
        let v6 = EgressRecord(host: "::1", port: 80, allowed: false, rule: "x", protocol: .socks5)
        #expect(v6.denialLine == "sentinel: egress denied: [::1]:80 (x)")
        let json = try JSONEncoder().encode(record)
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(object["host"] as? String == "evil.example")
        #expect(object["port"] as? Int == 443)
        #expect(object["allowed"] as? Bool == false)
        #expect(object["bytes"] as? Int == 7)
        #expect(object["protocol"] as? String == "connect")
        #expect(try JSONDecoder().decode(EgressRecord.self, from: json) == record)
    }

    @Test("the child's proxy environment names the proxy for every tool and leaves no bypass")
    func environment() {
        let variables = Dictionary(
            uniqueKeysWithValues: EgressEnvironment.variables(port: 3128).map { ($0.name, $0.value) })
        for name in ["HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "PIP_PROXY", "npm_config_proxy"] {
            #expect(variables[name] == "http://127.0.0.1:3128", "\(name)")
        }
        #expect(variables["ALL_PROXY"] == "socks5h://127.0.0.1:3128")
        #expect(variables["all_proxy"] == "socks5h://127.0.0.1:3128")
        #expect(variables["NO_PROXY"] == "")
        #expect(variables["no_proxy"] == "")
    }
}
