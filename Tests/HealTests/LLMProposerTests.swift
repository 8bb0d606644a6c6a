import Git
import Heal
import LLM
import Support
import Testing
import TestSupport

/// `LLMProposer`: prompt, completion and parsing end to end against the scripted provider.
@Suite(.integration) struct LLMProposerTests {
    let files = ["app/calc.py": "def divide(a, b):\n    return a / b\n", "tests/test_calc.py": "def test_x():\n    pass\n"]
    let excerpt = LLMExcerpt(path: "app/calc.py", text: "def divide(a, b):\n    return a / b\n")

    @Test func aFixIsProposed() throws {
        let reply = "app/calc.py\n<<<<<<< SEARCH\n    return a / b\n=======\n    return a / b if b else 0.0\n>>>>>>> REPLACE\n"
        let provider = try FakeLLMProvider([FakeLLMProvider.completion(reply, totalTokens: 321)])
        let proposer = LLMProposer(client: LLMClient(configuration: provider.configuration(), sleep: SleepLog().sleep))
        let proposal = try proposer.propose(signal: "ZeroDivisionError", excerpts: [excerpt], files: files)
        #expect(proposal.changes.map(\.path) == ["app/calc.py"] && proposal.testPaths.isEmpty)
        #expect(proposal.reply.tokens == 321)
        let sent = try provider.requestJSON(0)["messages"] as? [[String: String]]
        #expect(sent?.last?["content"]?.contains("ZeroDivisionError") == true)
    }

    @Test func aReplyThatEditsTestsIsFlagged() throws {
        let reply = """
            tests/test_calc.py
            <<<<<<< SEARCH
            def test_x():
                pass
            =======
            def test_x():
                return
            >>>>>>> REPLACE
            """
        let provider = try FakeLLMProvider([FakeLLMProvider.completion(reply)])
        let proposer = LLMProposer(client: LLMClient(configuration: provider.configuration(), sleep: SleepLog().sleep))
        let proposal = try proposer.propose(signal: "test fails", excerpts: [excerpt], files: files)
        #expect(proposal.testPaths == ["tests/test_calc.py"])
    }

    @Test func aDiffThatDoesNotApplyIsALesson() throws {
        let reply =
            "```diff\n--- a/app/calc.py\n+++ b/app/calc.py\n@@ -1,2 +1,2 @@\n def divide(x, y):\n-    return x / y\n+    return 0\n```\n"
        let provider = try FakeLLMProvider([FakeLLMProvider.completion(reply)])
        let client = LLMClient(configuration: provider.configuration(), sleep: SleepLog().sleep)
        let error = try #require(throws: SentinelError.self) {
            try LLMProposer(client: client).propose(signal: "x", excerpts: [excerpt], files: files)
        }
        #expect(error.code == .llmEdits && error.message.contains("app/calc.py"))
        #expect(client.tokensUsed == 50)  // the reply was paid for even though it was unusable
    }
}
