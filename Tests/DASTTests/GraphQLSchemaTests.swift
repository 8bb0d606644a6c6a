import Documents
import Testing

@testable import DAST

/// The introspection answer comes from the target: hostile names never reach the document sent
/// back, fields that need input objects are left out, and the operations keep to their bounds.
struct GraphQLSchemaTests {
    static func schema(_ json: String) throws -> GraphQLSchema? {
        GraphQLSchema(answer: try JSON.parse(Array(json.utf8), file: "introspection"))
    }

    static let string = #"{"kind":"SCALAR","name":"String"}"#

    @Test func aFieldBecomesAnAnonymousOperationWithItsArgumentsAsVariables() throws {
        let json = """
            {"data":{"__schema":{"queryType":{"name":"Q"},"mutationType":null,"types":[
            {"kind":"OBJECT","name":"Q","fields":[{"name":"user","args":[{"name":"id","type":{"kind":"NON_NULL","ofType":\(Self.string)}},
            {"name":"limit","type":{"kind":"SCALAR","name":"Int"}}],"type":{"kind":"OBJECT","name":"User"}}]},
            {"kind":"OBJECT","name":"User","fields":[{"name":"name","args":[],"type":\(Self.string)},
            {"name":"friends","args":[],"type":{"kind":"LIST","ofType":{"kind":"OBJECT","name":"User"}}}]}]}}}
            """
        let operations = try #require(try Self.schema(json)).operations
        #expect(
            operations.map(\.document) == [
                "query ($user_id: String!, $user_limit: Int) { user(id: $user_id, limit: $user_limit) { name } }"
            ])
        #expect(operations.first?.variables.members.map(\.key) == ["user_id", "user_limit"])
    }

    @Test func hostileNamesInputObjectsAndDestructiveMutationsAreLeftOut() throws {
        let json = """
            {"data":{"__schema":{"queryType":{"name":"Q"},"mutationType":{"name":"M"},"types":[
            {"kind":"OBJECT","name":"Q","fields":[
              {"name":"a} mutation { wipe","args":[{"name":"x","type":\(Self.string)}],"type":\(Self.string)},
              {"name":"search","args":[{"name":"q) { x } #","type":\(Self.string)}],"type":\(Self.string)},
              {"name":"byFilter","args":[{"name":"f","type":{"kind":"NON_NULL","ofType":{"kind":"INPUT_OBJECT","name":"F"}}}],"type":\(Self.string)},
              {"name":"noArgs","args":[],"type":\(Self.string)}]},
            {"kind":"OBJECT","name":"M","fields":[
              {"name":"deleteUser","args":[{"name":"id","type":\(Self.string)}],"type":\(Self.string)},
              {"name":"addNote","args":[{"name":"text","type":\(Self.string)}],"type":\(Self.string)}]}]}}}
            """
        let operations = try #require(try Self.schema(json)).operations
        #expect(operations.map(\.field) == ["addNote"])
        #expect(operations.first?.kind == "mutation")
    }

    @Test func anAnswerWithoutASchemaIsNone() throws {
        #expect(try Self.schema(#"{"errors":[{"message":"Introspection is Disabled"}],"data":null}"#) == nil)
    }
}
