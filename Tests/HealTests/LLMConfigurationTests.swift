import Foundation
import Heal
import LLM
import Support
import Testing

/// `LLMConfiguration.fromEnvironment` and the configuration's redacted descriptions.
@Suite struct LLMConfigurationTests {
    static let key = "sk-live-7d1e0c9b8a7f6e5d"
    let base = ["SENTINEL_LLM_URL": "https://api.example.com/v1", "SENTINEL_LLM_MODEL": "gpt-test"]

    @Test(arguments: [
        [:], ["SENTINEL_LLM_URL": "https://x"], ["SENTINEL_LLM_MODEL": "m"],
        ["SENTINEL_LLM_URL": "", "SENTINEL_LLM_MODEL": "m"], ["SENTINEL_LLM_URL": "https://x", "SENTINEL_LLM_MODEL": " "],
    ])
    func offUnlessURLAndModelAreSet(env: [String: String]) throws {
        #expect(try LLMConfiguration.fromEnvironment(env) == nil)
    }

    @Test func defaultsWithoutKey() throws {
        let configuration = try #require(try LLMConfiguration.fromEnvironment(base))
        #expect(configuration.model == "gpt-test" && configuration.key == nil)
        #expect(configuration.endpoint == "https://api.example.com/v1/chat/completions")
        #expect(configuration.maxTokens == LLMConfiguration.defaultMaxTokens && configuration.maxTokens == 200_000)
        #expect(String(describing: configuration).contains("key: none"))
    }

    @Test func budgetsAndLimits() throws {
        var env = base
        env["SENTINEL_LLM_MAX_TOKENS"] = "50_000"
        env["SENTINEL_LLM_TIMEOUT"] = "2m"
        env["SENTINEL_LLM_MAX_ATTEMPTS"] = "6"
        env["SENTINEL_LLM_TEMPERATURE"] = "0"
        let configuration = try #require(try LLMConfiguration.fromEnvironment(env))
        #expect(configuration.maxTokens == 50_000 && configuration.requestTimeout == 120)
        #expect(configuration.maxAttempts == 6 && configuration.temperature == 0)
    }

    @Test(arguments: [
        ("SENTINEL_LLM_MAX_TOKENS", "lots"), ("SENTINEL_LLM_MAX_TOKENS", "0"), ("SENTINEL_LLM_TIMEOUT", "soon"),
        ("SENTINEL_LLM_MAX_ATTEMPTS", "-1"), ("SENTINEL_LLM_TEMPERATURE", "9"), ("SENTINEL_LLM_URL", "ftp://x/"),
    ])
    func badValuesNameTheVariable(name: String, value: String) throws {
        var env = base
        env[name] = value
        let error = try #require(throws: SentinelError.self) { try LLMConfiguration.fromEnvironment(env) }
        #expect(error.code == .invalidInput && error.message.hasPrefix("\(name): "))
    }

    @Test(arguments: [
        ("http://127.0.0.1:11434", "http://127.0.0.1:11434/v1/chat/completions"),
        ("http://localhost:8080/", "http://localhost:8080/v1/chat/completions"),
        ("https://api.openai.com", "https://api.openai.com/v1/chat/completions"),
        ("https://proxy.example/llm/v1/chat/completions", "https://proxy.example/llm/v1/chat/completions"),
    ])
    func endpointFromTheBaseURL(url: String, endpoint: String) throws {
        #expect(LLMConfiguration(url: url, model: "m").endpoint == endpoint)
    }

    @Test func keyFromTheEnvironmentIsTrimmedAndRedacted() throws {
        var env = base
        env["SENTINEL_LLM_KEY"] = "  \(Self.key)\n"
        let configuration = try #require(try LLMConfiguration.fromEnvironment(env))
        #expect(configuration.key == LLMAPIKey(Self.key))
        var dumped = ""
        dump(configuration, to: &dumped)
        for text in [String(describing: configuration), String(reflecting: configuration), dumped, "\(configuration.key!)"] {
            #expect(!text.contains(Self.key))
        }
        #expect(String(describing: configuration).contains("key: <redacted>"))
    }

    @Test func keyFileWinsAndIsTrimmed() throws {
        let file = try temporaryFile("\(Self.key)\n")
        defer { try? FileManager.default.removeItem(atPath: file) }
        var env = base
        env["SENTINEL_LLM_KEY_FILE"] = file
        env["SENTINEL_LLM_KEY"] = "other-key-value"
        #expect(try LLMConfiguration.fromEnvironment(env)?.key == LLMAPIKey(Self.key))
    }

    @Test func unreadableKeyFileNamesTheFile() throws {
        var env = base
        env["SENTINEL_LLM_KEY_FILE"] = "/nonexistent/sentinel-llm-key"
        let error = try #require(throws: SentinelError.self) { try LLMConfiguration.fromEnvironment(env) }
        #expect(error.code == .invalidInput)
        #expect(error.message == "SENTINEL_LLM_KEY_FILE /nonexistent/sentinel-llm-key: no such file")
    }

    @Test(arguments: ["\n\n", "two\nlines-\(LLMConfigurationTests.key)", "with space \(LLMConfigurationTests.key)"])
    func unusableKeyFileContentIsNotQuoted(content: String) throws {
        let file = try temporaryFile(content)
        defer { try? FileManager.default.removeItem(atPath: file) }
        var env = base
        env["SENTINEL_LLM_KEY_FILE"] = file
        let error = try #require(throws: SentinelError.self) { try LLMConfiguration.fromEnvironment(env) }
        #expect(error.code == .invalidInput && error.message.hasPrefix("SENTINEL_LLM_KEY_FILE \(file): "))
        #expect(!error.message.contains(Self.key) && !error.message.contains("two"))
    }

    @Test func aKeyIsNotSentOverPlainHTTPToAnotherHost() throws {
        var env = ["SENTINEL_LLM_URL": "http://llm.internal:8000", "SENTINEL_LLM_MODEL": "m", "SENTINEL_LLM_KEY": Self.key]
        #expect(throws: SentinelError.self) { try LLMConfiguration.fromEnvironment(env) }
        env["SENTINEL_LLM_ALLOW_HTTP"] = "1"
        #expect(try LLMConfiguration.fromEnvironment(env) != nil)
        env["SENTINEL_LLM_URL"] = "http://127.0.0.1:11434"
        env["SENTINEL_LLM_ALLOW_HTTP"] = nil
        #expect(try LLMConfiguration.fromEnvironment(env) != nil)
    }

    private func temporaryFile(_ content: String) throws -> String {
        let path = NSTemporaryDirectory() + "sentinel-llm-key-\(UUID().uuidString)"
        try content.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
