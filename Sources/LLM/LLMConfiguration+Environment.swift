#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Support

extension LLMConfiguration {
    /// The configuration the environment describes, or nil when `SENTINEL_LLM_URL` or
    /// `SENTINEL_LLM_MODEL` is unset or empty (the LLM actor is then off).
    ///
    /// - `SENTINEL_LLM_KEY_FILE`: a file holding the key (trimmed); wins over `SENTINEL_LLM_KEY`.
    /// - `SENTINEL_LLM_KEY`: the key itself.
    /// - `SENTINEL_LLM_MAX_TOKENS`: the total token budget (default 200000).
    /// - `SENTINEL_LLM_TIMEOUT`: one request's limit (`90`, `90s`, `2m`; default 120 seconds).
    /// - `SENTINEL_LLM_MAX_ATTEMPTS`: attempts per completion (default 4).
    /// - `SENTINEL_LLM_TEMPERATURE`: 0 to 2 (default 0.2).
    /// - `SENTINEL_LLM_ALLOW_HTTP=1`: allow sending a key over plain HTTP to a host that is not
    ///   loopback (refused otherwise: the key would cross the network in clear).
    ///
    /// Bad values throw `SentinelError(.invalidInput)` naming the variable; key problems name
    /// the variable or file, never the key.
    public static func fromEnvironment(_ env: [String: String]) throws -> LLMConfiguration? {
        guard let url = nonEmpty(env["SENTINEL_LLM_URL"]), let model = nonEmpty(env["SENTINEL_LLM_MODEL"]) else {
            return nil
        }
        var configuration = LLMConfiguration(url: url, model: model, key: try key(env))
        if let text = nonEmpty(env["SENTINEL_LLM_MAX_TOKENS"]) {
            configuration.maxTokens = try positive(text.replacingOccurrences(of: "_", with: ""), "SENTINEL_LLM_MAX_TOKENS")
        }
        if let text = nonEmpty(env["SENTINEL_LLM_TIMEOUT"]) {
            guard let seconds = Quantity.seconds(text), seconds > 0 else {
                throw SentinelError(.invalidInput, "SENTINEL_LLM_TIMEOUT: '\(text)' is not a duration (e.g. 90s, 2m)")
            }
            configuration.requestTimeout = seconds
        }
        if let text = nonEmpty(env["SENTINEL_LLM_MAX_ATTEMPTS"]) {
            configuration.maxAttempts = try positive(text, "SENTINEL_LLM_MAX_ATTEMPTS")
        }
        if let text = nonEmpty(env["SENTINEL_LLM_TEMPERATURE"]) {
            guard let value = Double(text), (0...2).contains(value) else {
                throw SentinelError(.invalidInput, "SENTINEL_LLM_TEMPERATURE: '\(text)' is not a number from 0 to 2")
            }
            configuration.temperature = value
        }
        try checkURL(configuration, allowHTTP: env["SENTINEL_LLM_ALLOW_HTTP"] == "1")
        return configuration
    }

    private static func key(_ env: [String: String]) throws -> LLMAPIKey? {
        if let path = nonEmpty(env["SENTINEL_LLM_KEY_FILE"]) {
            let name = "SENTINEL_LLM_KEY_FILE \(path)"
            // Only the file's name goes into these messages: its content is the secret.
            let data: Data
            do {
                data = try BoundedFile.read(path, limit: 16_384)
            } catch let error as SentinelError {
                let reason =
                    switch error.errno?.rawValue {
                    case ENOENT: "no such file"
                    case nil: error.message.hasSuffix("bytes") ? "too large to hold one key" : "not a regular file"
                    default: "cannot read the key file"
                    }
                throw SentinelError(.invalidInput, "\(name): \(reason)")
            }
            return try checked(String(decoding: data, as: UTF8.self), name)
        }
        if let value = env["SENTINEL_LLM_KEY"], !value.isEmpty { return try checked(value, "SENTINEL_LLM_KEY") }
        return nil
    }

    /// The trimmed key; one that is empty or holds spaces or control characters is refused
    /// (a line break in it would add headers to the request).
    private static func checked(_ raw: String, _ name: String) throws -> LLMAPIKey {
        let key = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty else { throw SentinelError(.invalidInput, "\(name): the key is empty") }
        guard key.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else {
            throw SentinelError(.invalidInput, "\(name): the key holds spaces or control characters (one key on one line)")
        }
        return LLMAPIKey(key)
    }

    private static func checkURL(_ configuration: LLMConfiguration, allowHTTP: Bool) throws {
        let parsed = URL(string: configuration.url)
        let scheme = parsed?.scheme?.lowercased()
        guard scheme == "http" || scheme == "https", let host = parsed?.host, !host.isEmpty else {
            throw SentinelError(.invalidInput, "SENTINEL_LLM_URL: '\(configuration.url)' is not an http:// or https:// URL")
        }
        let loopback = ["localhost", "::1", "[::1]"].contains(host.lowercased()) || host.hasPrefix("127.")
        if scheme == "http", configuration.key != nil, !loopback, !allowHTTP {
            throw SentinelError(
                .invalidInput,
                "SENTINEL_LLM_URL: a key is sent only over https or to a loopback address (set SENTINEL_LLM_ALLOW_HTTP=1 to allow \(host))"
            )
        }
    }

    private static func positive(_ text: String, _ name: String) throws -> Int {
        guard let value = Int(text), value > 0 else {
            throw SentinelError(.invalidInput, "\(name): '\(text)' is not a whole number above 0")
        }
        return value
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }
}
