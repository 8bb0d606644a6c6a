#if canImport(Glibc)
    import Glibc
#endif

/// What every connection of one proxy shares.
struct SessionContext: Sendable {
    let policy: EgressPolicy
    let resolver: any Resolver
    let limits: EgressLimits
    let stopFd: Int32
    let budget: ByteBudget
    /// Stores a finished record (and reports denials).
    let finish: @Sendable (EgressRecord) -> Void
}

/// One client connection: read and parse its request (HTTP CONNECT, plain HTTP or
/// SOCKS5), decide, connect, answer, relay, record. Owns and closes the client socket.
struct EgressSession {
    let client: Int32
    let context: SessionContext
    /// Set when the connection limit is reached: the request is parsed, then refused with this reason.
    let refusal: String?

    private let started = ContinuousClock.now

    init(client: Int32, context: SessionContext, refusal: String?) {
        self.client = client
        self.context = context
        self.refusal = refusal
    }

    func run() {
        var buffer: [UInt8] = []
        guard readMore(&buffer) else { return drop() }
        if buffer[0] == 5 { socks(&buffer) } else { http(&buffer) }
    }

    /// Closes the client without a word (EOF, timeout or stop before a whole request).
    private func drop() { close(client) }

    // MARK: Reading the request

    private var deadline: ContinuousClock.Instant { started + context.limits.requestTimeout }

    /// Reads more request bytes before the request deadline; false on EOF, timeout, stop or error.
    private func readMore(_ buffer: inout [UInt8]) -> Bool {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { return false }
        let result = SocketIO.readSome(
            client, into: &buffer, maximum: 16 * 1024, timeoutMs: remaining.pollMilliseconds, stopFd: context.stopFd)
        if case .data = result { return true }
        return false
    }

    // MARK: HTTP

    private func http(_ buffer: inout [UInt8]) {
        while true {
            switch HTTPRequestHead.parse(buffer[...]) {
            case .incomplete:
                guard readMore(&buffer) else { return drop() }
            case .invalid(let failure):
                return answerHTTP(failure.status, failure.reason)
            case .complete(let head, let consumed):
                let leftover = Array(buffer[consumed...])
                if head.method == "CONNECT" {
                    switch ConnectRequest.parse(buffer[...]) {
                    case .complete(let request, _): return serve(request.destination, .connect, initial: leftover)
                    case .invalid(let failure): return answerHTTP(failure.status, failure.reason)
                    case .incomplete: return answerHTTP(400, "incomplete request")
                    }
                }
                switch ForwardRequest.parse(buffer[...]) {
                case .complete(let request, _):
                    if let conflict = request.hostConflict {
                        return deny(request.destination, .http, EgressDecision.denied(conflict))
                    }
                    return serve(
                        request.destination, .http, initial: request.upstreamHead + leftover,
                        upstreamLimit: request.upstreamHead.count + request.bodyLength)
                case .invalid(let failure):
                    return answerHTTP(failure.status, failure.reason)
                case .incomplete:
                    return answerHTTP(400, "incomplete request")
                }
            }
        }
    }

    private static let statusText: [Int: String] = [
        400: "Bad Request", 403: "Forbidden", 408: "Request Timeout", 411: "Length Required",
        431: "Request Header Fields Too Large",
        502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
    ]

    private func answerHTTP(_ status: Int, _ message: String) {
        let body = "sentinel egress: \(message)\n"
        let text =
            "HTTP/1.1 \(status) \(EgressSession.statusText[status] ?? "Error")\r\n"
            + "Content-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        _ = SocketIO.writeAll(client, Array(text.utf8), timeoutMs: 2000, stopFd: context.stopFd)
        SocketIO.closeGracefully(client, stopFd: context.stopFd)
    }

    // MARK: SOCKS5

    private func socks(_ buffer: inout [UInt8]) {
        let stop = context.stopFd
        var greeted = false
        while !greeted {
            switch SOCKS5.parseGreeting(buffer[...]) {
            case .incomplete:
                guard readMore(&buffer) else { return drop() }
            case .invalid:
                _ = SocketIO.writeAll(client, [5, 0xFF], timeoutMs: 2000, stopFd: stop)
                return SocketIO.closeGracefully(client, stopFd: stop)
            case .complete(let methods, let consumed):
                guard methods.contains(0) else {
                    _ = SocketIO.writeAll(client, [5, 0xFF], timeoutMs: 2000, stopFd: stop)
                    return SocketIO.closeGracefully(client, stopFd: stop)
                }
                guard SocketIO.writeAll(client, [5, 0], timeoutMs: 2000, stopFd: stop) else { return drop() }
                buffer.removeFirst(consumed)
                greeted = true
            }
        }
        while true {
            switch SOCKS5.parseRequest(buffer[...]) {
            case .incomplete:
                guard readMore(&buffer) else { return drop() }
            case .invalid(let failure):
                return answerSOCKS(SOCKS5.Reply(rawValue: UInt8(clamping: failure.status)) ?? .generalFailure)
            case .complete(let request, let consumed):
                guard let destination = request.destination else { return answerSOCKS(.commandNotSupported) }
                return serve(destination, .socks5, initial: Array(buffer[consumed...]))
            }
        }
    }

    private func answerSOCKS(_ reply: SOCKS5.Reply) {
        _ = SocketIO.writeAll(client, SOCKS5.reply(reply), timeoutMs: 2000, stopFd: context.stopFd)
        SocketIO.closeGracefully(client, stopFd: context.stopFd)
    }

    // MARK: Deciding, connecting, relaying

    private func record(_ destination: EgressAuthority, _ kind: EgressProtocol, _ decision: EgressDecision)
        -> EgressRecord
    {
        EgressRecord(
            host: destination.host.description, port: Int(destination.port), allowed: decision.allowed,
            rule: decision.rule, protocol: kind)
    }

    private var elapsedMs: Int {
        let (seconds, attoseconds) = started.duration(to: .now).components
        return Int(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    private func deny(
        _ destination: EgressAuthority, _ kind: EgressProtocol, _ decision: EgressDecision, status: Int = 403
    ) {
        var entry = record(destination, kind, decision)
        entry.durationMs = elapsedMs
        context.finish(entry)
        if kind == .socks5 {
            answerSOCKS(status == 503 ? .generalFailure : .notAllowed)
        } else {
            answerHTTP(status, "denied: \(destination) (\(decision.rule))")
        }
    }

    private func fail(_ entry: EgressRecord, _ error: String, timedOut: Bool, refused: Bool) {
        var entry = entry
        entry.error = error
        entry.durationMs = elapsedMs
        context.finish(entry)
        if entry.protocol == .socks5 {
            answerSOCKS(timedOut ? .ttlExpired : refused ? .connectionRefused : .hostUnreachable)
        } else {
            answerHTTP(timedOut ? 504 : 502, error)
        }
    }

    private func serve(
        _ destination: EgressAuthority, _ kind: EgressProtocol, initial: [UInt8], upstreamLimit: Int? = nil
    ) {
        if let refusal {
            return deny(destination, kind, .denied(refusal), status: 503)
        }
        if context.budget.exhausted, let limit = context.limits.maxTotalBytes {
            return deny(destination, kind, .denied("total byte limit \(limit) reached"), status: 503)
        }
        let named = context.policy.decide(host: destination.host, port: destination.port)
        guard named.allowed else { return deny(destination, kind, named) }

        let addresses: [IPAddress]
        switch destination.host {
        case .address(let address):
            addresses = [address]
        case .name(let name):
            do {
                addresses = try context.resolver.resolve(name)
            } catch {
                return fail(record(destination, kind, named), "\(error)", timedOut: false, refused: false)
            }
        }
        let decision = context.policy.decide(host: destination.host, port: destination.port, addresses: addresses)
        guard decision.allowed else { return deny(destination, kind, decision) }

        var entry = record(destination, kind, decision)
        var upstream: Int32 = -1
        var lastError = "no address"
        var timedOut = false
        var refused = false
        for address in addresses {
            let target = SocketAddress(address: address, port: destination.port)
            switch SocketIO.connect(
                to: target, timeoutMs: context.limits.connectTimeout.pollMilliseconds, stopFd: context.stopFd)
            {
            case .success(let fd):
                upstream = fd
                entry.address = address.description
            case .failure(let error):
                lastError = error.message
                timedOut = error.errno?.rawValue == ETIMEDOUT
                refused = error.errno?.rawValue == ECONNREFUSED
            }
            if upstream >= 0 { break }
        }
        guard upstream >= 0 else { return fail(entry, lastError, timedOut: timedOut, refused: refused) }
        defer { close(upstream) }

        let stop = context.stopFd
        let greeting: [UInt8]
        switch kind {
        case .connect: greeting = Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8)
        case .http: greeting = []
        case .socks5:
            // BND.ADDR stays 0.0.0.0:0: the host's own address is none of the sandbox's business.
            greeting = SOCKS5.reply(.succeeded)
        }
        guard greeting.isEmpty || SocketIO.writeAll(client, greeting, timeoutMs: 2000, stopFd: stop) else {
            entry.error = "client went away"
            entry.durationMs = elapsedMs
            context.finish(entry)
            return drop()
        }
        let idleMs = context.limits.idleTimeout.pollMilliseconds
        let outcome = Relay(
            client: client, upstream: upstream, stopFd: stop, idleTimeoutMs: idleMs, budget: context.budget
        ).run(initialToUpstream: initial, upstreamLimit: upstreamLimit)
        close(client)
        entry.bytesOut = outcome.bytesOut
        entry.bytesIn = outcome.bytesIn
        entry.error = outcome.error
        entry.durationMs = elapsedMs
        context.finish(entry)
    }
}
