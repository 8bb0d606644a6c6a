import Heal
import LLM
import Testing

/// `LLMPrompt.messages`: what the model is told and shown.
@Suite struct LLMPromptTests {
    let excerpt = LLMExcerpt(path: "app/calc.py", firstLine: 10, text: "def divide(a, b):\n    return a / b\n")

    @Test func systemRulesAndUserMaterial() throws {
        let messages = LLMPrompt.messages(
            signal: "FAILED tests/test_calc.py::test_zero - ZeroDivisionError", excerpts: [excerpt],
            attempts: [LLMAttempt(change: "return 0", lesson: "returning 0 hides the error; the test expects ValueError")])
        #expect(messages.map(\.role) == [.system, .user])
        let system = messages[0].content
        #expect(system.contains("Never edit, add or delete tests"))
        #expect(system.contains("<<<<<<< SEARCH") && system.contains(">>>>>>> REPLACE"))
        let user = messages[1].content
        #expect(user.contains("FAILED tests/test_calc.py::test_zero - ZeroDivisionError"))
        #expect(user.contains("### app/calc.py (lines 10-11)\n\n```\ndef divide(a, b):\n    return a / b\n```"))
        #expect(user.contains("1. Lesson: returning 0 hides the error; the test expects ValueError"))
        #expect(user.contains("```\nreturn 0\n```"))
    }

    @Test func unifiedDiffFormatAsksForADiff() throws {
        let system = LLMPrompt.messages(signal: "x", excerpts: [excerpt], format: .unifiedDiff)[0].content
        #expect(system.contains("```diff") && system.contains("--- a/PATH") && !system.contains("<<<<<<< SEARCH"))
    }

    @Test func backticksInCodeGetALongerFence() throws {
        let tricky = LLMExcerpt(path: "README.md", text: "```\nrun it\n```\n")
        let user = LLMPrompt.messages(signal: "x", excerpts: [tricky])[1].content
        #expect(user.contains("````\n```\nrun it\n```\n````"))
    }

    @Test func longSignalsKeepHeadAndTail() throws {
        let signal = "HEAD" + String(repeating: "x", count: 50_000) + "TAIL"
        let user = LLMPrompt.messages(signal: signal, excerpts: [])[1].content
        #expect(user.contains("HEAD") && user.contains("TAIL") && user.contains("characters left out"))
        #expect(user.count < 20_000)
    }
}
