import Testing

@testable import Egress

@Suite("Egress parsers")
struct EgressParserTests {
    static func bytes(_ text: String) -> ArraySlice<UInt8> { Array(text.utf8)[...] }

    @Test(
        "CONNECT requests parse with the bytes after the head left for the tunnel",
        arguments: [
            ("CONNECT allowed.test:443 HTTP/1.1\r\nHost: allowed.test:443\r\n\r\nTLS", "allowed.test:443", 3),
            ("CONNECT [::1]:8080 HTTP/1.1\r\n\r\n", "[::1]:8080", 0),
            ("CONNECT 127.0.0.1:1 HTTP/1.0\n\n", "127.0.0.1:1", 0),
            (
                "CONNECT Allowed.TEST.:65535 HTTP/1.1\r\nUser-Agent: curl\r\nProxy-Connection: Keep-Alive\r\n\r\n",
                "allowed.test:65535", 0
            ),
        ])
    func connectParses(text: String, destination: String, leftover: Int) throws {
        guard case .complete(let request, let consumed) = ConnectRequest.parse(Self.bytes(text)) else {
            Issue.record("not complete")
            return
        }
        #expect(request.destination.description == destination)
        #expect(text.utf8.count - consumed == leftover)
    }

    @Test(
        "bad CONNECT requests are invalid with the right status",
        arguments: [
            ("CONNECT allowed.test HTTP/1.1\r\n\r\n", 400),
            ("CONNECT allowed.test:0 HTTP/1.1\r\n\r\n", 400),
            ("CONNECT allowed.test:99999 HTTP/1.1\r\n\r\n", 400),
            ("CONNECT ::1:443 HTTP/1.1\r\n\r\n", 400),
            ("CONNECT 127.1:443 HTTP/1.1\r\n\r\n", 400),
            ("CONNECT a.test:443 HTTP/2.0\r\n\r\n", 400),
            ("CONNECT  a.test:443 HTTP/1.1\r\n\r\n", 400),
            ("CONNECT a.test:443 HTTP/1.1\r\n Folded: x\r\n\r\n", 400),
            ("CONNECT a.test:443 HTTP/1.1\r\nNo colon\r\n\r\n", 400),
            ("CONNECT a.test:443 HTTP/1.1\r\nA\u{0}: b\r\n\r\n", 400),
            ("CONNECT a.test:443 HTTP/1.1\rX: y\r\n\r\n", 400),
            ("GET http://a.test/ HTTP/1.1\r\n\r\n", 400),
            ("\u{16}\u{3}\u{1}garbage", 400),
        ])
    func connectInvalid(text: String, status: Int) {
        guard case .invalid(let failure) = ConnectRequest.parse(Self.bytes(text)) else {
            Issue.record("accepted: \(text.debugDescription)")
            return
        }
        #expect(failure.status == status)
    }

    @Test("heads are bounded in size and line count")
    func headLimits() {
        let big =
            "CONNECT a.test:443 HTTP/1.1\r\nX: " + String(repeating: "a", count: ProxyParseLimits.maxHeadBytes)
            + "\r\n\r\n"
        guard case .invalid(let sizeFailure) = HTTPRequestHead.parse(Self.bytes(big)) else {
            Issue.record("oversized head accepted")
            return
        }
        #expect(sizeFailure.status == 431)
        let many =
            "GET http://a.test/ HTTP/1.1\r\n"
            + String(repeating: "X: y\r\n", count: ProxyParseLimits.maxHeaderLines + 1)
            + "\r\n"
        guard case .invalid(let countFailure) = HTTPRequestHead.parse(Self.bytes(many)) else {
            Issue.record("too many headers accepted")
            return
        }
        #expect(countFailure.status == 431)
        let partial = "CONNECT a.test:443 HTTP/1.1\r\nHost: a"
        guard case .incomplete = HTTPRequestHead.parse(Self.bytes(partial)) else {
            Issue.record("partial head not incomplete")
            return
        }
    }

    @Test("every prefix of a valid request is incomplete, never invalid")
    func prefixesAreIncomplete() {
        let full = Array("GET http://a.test:8080/x?y=1 HTTP/1.1\r\nHost: a.test:8080\r\nAccept: */*\r\n\r\n".utf8)
        for length in 0..<full.count {
            guard case .incomplete = ForwardRequest.parse(full[0..<length]) else {
                Issue.record("prefix of length \(length) was not incomplete")
                return
            }
        }
    }

    @Test("forward requests are rewritten to origin form without proxy headers")
    func forwardRewrite() throws {
        let text =
            "GET http://Allowed.test:8080/a/b?c=d HTTP/1.1\r\nHost: allowed.test:8080\r\n"
            + "Proxy-Authorization: Basic eA==\r\nProxy-Connection: Keep-Alive\r\nConnection: keep-alive\r\n"
            + "Keep-Alive: 5\r\nAccept: */*\r\n\r\nBODY"
        guard case .complete(let request, let consumed) = ForwardRequest.parse(Self.bytes(text)) else {
            Issue.record("not complete")
            return
        }
        #expect(text.utf8.count - consumed == 4)
        #expect(request.destination.description == "allowed.test:8080")
        #expect(request.originForm == "/a/b?c=d")
        #expect(request.hostConflict == nil)
        let head = String(decoding: request.upstreamHead, as: UTF8.self)
        #expect(head == "GET /a/b?c=d HTTP/1.1\r\nHost: allowed.test:8080\r\nAccept: */*\r\nConnection: close\r\n\r\n")
    }

    @Test("a missing Host header is added from the URI; a bare authority gets path /")
    func forwardAddsHost() throws {
        guard case .complete(let request, _) = ForwardRequest.parse(Self.bytes("GET http://a.test?q HTTP/1.0\r\n\r\n"))
        else {
            Issue.record("not complete")
            return
        }
        #expect(
            String(decoding: request.upstreamHead, as: UTF8.self)
                == "GET /?q HTTP/1.0\r\nHost: a.test\r\nConnection: close\r\n\r\n")
        guard case .complete(let v6, _) = ForwardRequest.parse(Self.bytes("GET http://[::1]:81/ HTTP/1.0\r\n\r\n"))
        else {
            Issue.record("not complete")
            return
        }
        #expect(String(decoding: v6.upstreamHead, as: UTF8.self).contains("\r\nHost: [::1]:81\r\n"))
    }

    @Test(
        "Host headers must agree with the URI",
        arguments: [
            ("Host: a.test:8080", nil as String?),
            ("Host: A.TEST.:8080", nil),
            ("Host: evil.test:8080", "Host header 'evil.test:8080' does not match a.test:8080"),
            ("Host: a.test", "Host header 'a.test' does not match a.test:8080"),
            ("Host: a.test:8080\r\nHost: evil.test", "2 Host headers"),
            ("Host: a.test:8080@evil.test", "Host header 'a.test:8080@evil.test' does not match a.test:8080"),
        ])
    func hostAgreement(header: String, conflict: String?) throws {
        let text = "GET http://a.test:8080/ HTTP/1.1\r\n\(header)\r\n\r\n"
        guard case .complete(let request, _) = ForwardRequest.parse(Self.bytes(text)) else {
            Issue.record("not complete")
            return
        }
        #expect(request.hostConflict == conflict)
    }

    @Test(
        "forward requests that are not plain absolute http URIs are invalid",
        arguments: [
            "GET / HTTP/1.1\r\nHost: a.test\r\n\r\n",
            "GET https://a.test/ HTTP/1.1\r\n\r\n",
            "GET http://user@a.test/ HTTP/1.1\r\n\r\n",
            "GET http:///x HTTP/1.1\r\n\r\n",
            "GET http://a.test:x/ HTTP/1.1\r\n\r\n",
            "GET ftp://a.test/ HTTP/1.1\r\n\r\n",
            "GET http://127.1/ HTTP/1.1\r\n\r\n",
            "POST http://a.test/ HTTP/1.1\r\nContent-Length: x\r\n\r\n",
            "POST http://a.test/ HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
            "POST http://a.test/ HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
        ])
    func forwardInvalid(text: String) {
        guard case .invalid(let failure) = ForwardRequest.parse(Self.bytes(text)) else {
            Issue.record("accepted: \(text.debugDescription)")
            return
        }
        #expect(failure.status == 400)
    }

    @Test("forward request bodies: Content-Length is read, Transfer-Encoding is refused with 411")
    func forwardBodies() {
        guard
            case .complete(let request, _) = ForwardRequest.parse(
                Self.bytes("POST http://a.test/ HTTP/1.1\r\nContent-Length: 12\r\ncontent-length: 12\r\n\r\n"))
        else {
            Issue.record("not complete")
            return
        }
        #expect(request.bodyLength == 12)
        guard
            case .invalid(let failure) = ForwardRequest.parse(
                Self.bytes("POST http://a.test/ HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"))
        else {
            Issue.record("chunked body accepted")
            return
        }
        #expect(failure.status == 411)
    }

    @Test("SOCKS5 greetings")
    func socksGreeting() {
        guard case .complete(let methods, let consumed) = SOCKS5.parseGreeting([5, 2, 0, 2, 99][...]) else {
            Issue.record("not complete")
            return
        }
        #expect(methods == [0, 2])
        #expect(consumed == 4)
        guard case .incomplete = SOCKS5.parseGreeting([5, 3, 0][...]) else {
            Issue.record("short greeting")
            return
        }
        guard case .invalid = SOCKS5.parseGreeting([4, 1, 0][...]) else {
            Issue.record("SOCKS4 accepted")
            return
        }
        guard case .invalid = SOCKS5.parseGreeting([5, 0][...]) else {
            Issue.record("no methods accepted")
            return
        }
    }

    @Test(
        "SOCKS5 CONNECT requests with IPv4, IPv6 and domain addresses",
        arguments: [
            ([5, 1, 0, 1, 127, 0, 0, 1, 0x1F, 0x90], "127.0.0.1:8080"),
            ([5, 1, 0, 4] + [UInt8](repeating: 0, count: 15) + [1, 0, 80], "[::1]:80"),
            ([5, 1, 0, 3, 12] + Array("Allowed.Test".utf8) + [1, 187], "allowed.test:443"),
            ([5, 1, 0, 3, 16] + Array("::ffff:127.0.0.1".utf8) + [0, 80], "[::ffff:127.0.0.1]:80"),
            (
                [5, 1, 0, 4] + [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF, 127, 0, 0, 1, 0, 80],
                "[::ffff:127.0.0.1]:80"
            ),
        ] as [([UInt8], String)])
    func socksRequest(bytes: [UInt8], destination: String) {
        guard case .complete(let request, let consumed) = SOCKS5.parseRequest((bytes + [42])[...]) else {
            Issue.record("not complete")
            return
        }
        #expect(consumed == bytes.count)
        #expect(request.destination?.description == destination)
        for length in 0..<bytes.count {
            guard case .incomplete = SOCKS5.parseRequest(bytes[0..<length]) else {
                Issue.record("prefix \(length) not incomplete")
                return
            }
        }
    }

    @Test(
        "SOCKS5 refusals carry the RFC 1928 reply code",
        arguments: [
            ([5, 1, 0, 5, 1, 2, 3, 4, 0, 80], 0x08),
            ([5, 1, 1, 1, 1, 2, 3, 4, 0, 80], 0x01),
            ([5, 1, 0, 1, 1, 2, 3, 4, 0, 0], 0x01),
            ([5, 1, 0, 3, 0, 0, 80], 0x01),
            ([5, 1, 0, 3, 4, 0x61, 0x20, 0x62, 0x63, 0, 80], 0x01),
            ([5, 1, 0, 3, 5] + Array("127.1".utf8) + [0, 80], 0x01),
        ] as [([UInt8], Int)])
    func socksInvalid(bytes: [UInt8], code: Int) {
        guard case .invalid(let failure) = SOCKS5.parseRequest(bytes[...]) else {
            Issue.record("accepted \(bytes)")
            return
        }
        #expect(failure.status == code)
    }

    @Test("SOCKS5 BIND and UDP ASSOCIATE parse without a destination", arguments: [UInt8(2), 3])
    func socksOtherCommands(command: UInt8) {
        guard case .complete(let request, _) = SOCKS5.parseRequest([5, command, 0, 1, 127, 0, 0, 1, 0, 80][...]) else {
            Issue.record("not complete")
            return
        }
        #expect(request.command == command)
        #expect(request.destination == nil)
    }

    @Test("SOCKS5 replies")
    func socksReplies() throws {
        #expect(SOCKS5.reply(.notAllowed) == [5, 2, 0, 1, 0, 0, 0, 0, 0, 0])
        let bound = try #require(IPAddress("::1"))
        #expect(SOCKS5.reply(.succeeded, bound: (bound, 258)) == [5, 0, 0, 4] + bound.bytes + [1, 2])
    }
}
