import Support
import Testing

@testable import DAST
@testable import Web

/// OpenAPI 3.0 (JSON) and 3.1 (YAML) documents into operations with example requests.
@Suite struct OpenAPIDocumentTests {
    private static let base = WebURL("http://127.0.0.1:8080/")

    private static let petstore = """
        {
          "openapi": "3.0.3",
          "info": {"title": "Pets"},
          "servers": [{"url": "/api/{version}", "variables": {"version": {"default": "v1"}}}],
          "paths": {
            "/pets/{petId}": {
              "parameters": [
                {"name": "petId", "in": "path", "required": true, "schema": {"type": "integer", "minimum": 10}},
                {"name": "verbose", "in": "query", "schema": {"type": "boolean"}}
              ],
              "get": {
                "operationId": "getPet",
                "parameters": [
                  {"name": "verbose", "in": "query", "schema": {"type": "string", "enum": ["yes", "no"]}},
                  {"$ref": "#/components/parameters/Trace"},
                  {"name": "since", "in": "query", "schema": {"type": "string", "format": "date"}},
                  {"name": "session", "in": "cookie", "example": "abc"},
                  {"name": "X-Id", "in": "header", "schema": {"type": "string", "format": "uuid"}},
                  {"name": "bad", "in": "body"}
                ]
              },
              "put": {"requestBody": {"$ref": "#/components/requestBodies/PetBody"}}
            },
            "/search": {
              "post": {
                "requestBody": {"content": {
                  "application/xml": {"example": "<q/>"},
                  "application/x-www-form-urlencoded": {"schema": {"type": "object", "properties": {
                    "q": {"type": "string"}, "page": {"type": "integer", "default": 2}}}}
                }}
              }
            },
            "relative": {"get": {}}
          },
          "components": {
            "parameters": {"Trace": {"name": "trace", "in": "header", "examples": {"one": {"value": "t-1"}}}},
            "requestBodies": {"PetBody": {"required": true, "content": {
              "text/plain": {}, "application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}},
            "schemas": {
              "Pet": {"allOf": [{"$ref": "#/components/schemas/Named"}, {"type": "object", "properties": {
                "tags": {"type": "array", "items": {"type": "string"}},
                "owner": {"$ref": "#/components/schemas/Owner"},
                "id": {"type": "integer", "readOnly": true}}}]},
              "Named": {"type": "object", "properties": {"name": {"type": "string", "example": "Rex"}}},
              "Owner": {"type": "object", "properties": {
                "email": {"type": "string", "format": "email"},
                "pets": {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}},
                "ext": {"$ref": "other.yaml#/Ext"}}}
            }
          }
        }
        """

    private static let fixtures: String = {
        let file = #filePath
        let tests = file[..<(file.range(of: "/DASTTests/")?.lowerBound ?? file.endIndex)]
        return tests + "/Fixtures/dast-parse"
    }()

    private func parse(_ text: String, file: String = "api.json") throws -> OpenAPIDocument {
        try OpenAPIDocument.parse(bytes: Array(text.utf8), file: file)
    }

    private func failure(_ text: String, file: String) -> String? {
        do {
            _ = try parse(text, file: file)
            return nil
        } catch {
            return (error as? SentinelError)?.message ?? "\(error)"
        }
    }

    @Test func jsonDocumentParametersAtBothLevels() throws {
        let document = try parse(Self.petstore)
        let base = try #require(Self.base)
        #expect(document.version == "3.0.3" && document.title == "Pets")
        #expect(document.servers == ["/api/v1"])
        #expect(
            document.operations.map { "\($0.method) \($0.pathTemplate)" } == ["GET /pets/{petId}", "PUT /pets/{petId}", "POST /search"])
        let get = document.operations[0]
        #expect(get.operationId == "getPet")
        #expect(
            get.parameters.map { "\($0.location.rawValue) \($0.name)=\($0.example) \($0.required)" } == [
                "path petId=10 true", "query verbose=yes false", "header trace=t-1 false", "query since=2024-01-01 false",
                "cookie session=abc false", "header X-Id=123e4567-e89b-42d3-a456-426614174000 false",
            ])
        #expect(get.parameters[0].type == "integer")
        #expect(get.filledPath == "/pets/10")
        #expect(get.path(base: base) == "/api/v1/pets/10")
        #expect(get.url(base: base)?.string == "http://127.0.0.1:8080/api/v1/pets/10?verbose=yes&since=2024-01-01")
        #expect(!get.usesForeignServer(base: base))
        #expect(document.operations[1].parameters.map(\.name) == ["petId", "verbose"], "path-level parameters apply")
        #expect(
            document.notices == [
                "api.json:19: parameter 'bad' has an unknown location; skipped",
                "api.json:48: $ref 'other.yaml#/Ext' points outside the document; not followed",
                "api.json:33: path 'relative' does not start with '/'; skipped",
            ])
    }

    @Test func requestBodiesFromSchemasWithAllOfAndCycles() throws {
        let document = try parse(Self.petstore)
        let put = try #require(document.operations[1].requestBody)
        #expect(put.mediaType == "application/json" && put.required && put.isJSON)
        #expect(put.text == #"{"name":"Rex","tags":["sentinel"],"owner":{"email":"sentinel@example.com","pets":[]}}"#)
        #expect(put.fieldPaths == ["name", "tags[0]", "owner.email"])
        #expect(
            put.body.replacing("owner.email", with: #"'"<x>"#)?.text
                == #"{"name":"Rex","tags":["sentinel"],"owner":{"email":"'\"<x>","pets":[]}}"#)
        let search = try #require(document.operations[2].requestBody)
        #expect(search.mediaType == "application/x-www-form-urlencoded")
        #expect(search.text == "q=sentinel&page=2")
        #expect(search.formFields.map { "\($0.name)=\($0.value)" } == ["q=sentinel", "page=2"])
    }

    @Test func yamlDocumentFromAFile() throws {
        let document = try OpenAPIDocument.load(path: Self.fixtures + "/shop.yaml")
        let base = try #require(Self.base)
        #expect(document.version == "3.1.0" && document.servers == ["https://api.example.com/v2"])
        let delete = try #require(document.operations.first)
        #expect(delete.method == "DELETE" && delete.summary == "Remove an item" && delete.line == 19)
        #expect(
            delete.parameters.map { "\($0.name)=\($0.example)" } == [
                "orderId=123e4567-e89b-42d3-a456-426614174000", "itemId=7", "reason=sent",
            ])
        #expect(delete.parameters.allSatisfy { $0.required })
        #expect(delete.usesForeignServer(base: base), "the server is on another origin")
        #expect(delete.path(base: base) == "/v2/orders/123e4567-e89b-42d3-a456-426614174000/items/7")
        #expect(delete.url(base: base)?.string.hasPrefix("http://127.0.0.1:8080/v2/orders/") == true)
        let post = try #require(document.operations.last)
        #expect(post.operationId == "addNode" && post.servers == ["/internal"])
        #expect(post.path(base: base) == "/internal/nodes")
        #expect(post.requestBody?.text == #"{"value":5.0,"kind":"leaf","meta":{"key":true}}"#)
        #expect(post.requestBody?.fieldPaths == ["value", "kind", "meta.key"])
    }

    @Test func referenceChainsAndLoopsAreBounded() throws {
        var schemas = (0..<40).map { ##""S\##($0)": {"$ref": "#/components/schemas/S\##($0 + 1)"}"## }
        schemas.append(##""S40": {"type": "string"}"##)
        let text = """
            {"openapi": "3.0.0", "paths": {"/x": {"post": {
              "parameters": [{"$ref": "#/components/parameters/A"}, {"name": "deep", "in": "query", "schema": {"$ref": "#/components/schemas/S0"}}],
              "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/S0"}}}}}}},
             "components": {"parameters": {"A": {"$ref": "#/components/parameters/B"}, "B": {"$ref": "#/components/parameters/A"}},
              "schemas": {\(schemas.joined(separator: ","))}}}
            """
        let document = try parse(text)
        let operation = try #require(document.operations.first)
        #expect(operation.parameters.map { "\($0.name)=\($0.example)" } == ["deep=sentinel"])
        #expect(operation.requestBody?.text == #""sentinel""#, "the depth limit stops the chain")
        #expect(
            document.notices == [
                "api.json:4: $ref '#/components/parameters/A' loops; not followed",
                "api.json:5: $ref '#/components/schemas/S32' ends a chain of more than 32 references; not followed",
            ])
    }

    @Test func wideRecursiveSchemasStayBounded() throws {
        let properties = (0..<50).map { ##""p\##($0)": {"$ref": "#/components/schemas/T"}"## }.joined(separator: ",")
        let text = """
            {"openapi": "3.1.0", "paths": {"/x": {"post": {"requestBody": {"content": {"application/json": {
              "schema": {"$ref": "#/components/schemas/W"}}}}}}},
             "components": {"schemas": {"W": {"type": "object", "properties": {\(properties)}},
              "T": {"type": "object", "properties": {\(properties.replacing("/T", with: "/U"))}},
              "U": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "array", "items": {"$ref": "#/components/schemas/U2"}}}},
              "U2": {"type": "object", "properties": {"c": {"type": "integer"}}}}}}
            """
        let body = try #require(parse(text).operations.first?.requestBody)
        #expect(body.fieldPaths.count == JSONBody.maxFieldPaths)
        #expect(body.text.utf8.count < 1 << 20)
    }

    @Test(
        "documents that are not OpenAPI 3 are refused with FILE:LINE",
        arguments: [
            ("{\n\"swagger\": \"2.0\", \"paths\": {}}", "api.json:2: Swagger 2.0 is not supported (convert the document to OpenAPI 3)"),
            ("swagger: '2.0'\n", "api.yaml:1: Swagger 2.0 is not supported (convert the document to OpenAPI 3)"),
            (#"{"info": {}}"#, "api.json:1: not an OpenAPI document (no 'openapi' key)"),
            ("openapi: 2.5.0\n", "api.yaml:1: openapi: version '2.5.0' is not supported (only 3.0 and 3.1)"),
            ("- a\n- b\n", "api.yaml:1: not an OpenAPI document (expected a mapping)"),
            ("openapi: 3.0.0\npaths: [1]\n", "api.yaml:2: paths: must be a mapping"),
        ])
    func refused(text: String, message: String) {
        let file = text.hasPrefix("{") ? "api.json" : "api.yaml"
        #expect(failure(text, file: file) == message)
    }

    @Test func malformedFilesNameTheLine() throws {
        let json = failure("{\n  \"openapi\": \"3.0.0\",\n  \"paths\": {\n    \"/x\": {,\n", file: "bad.json")
        #expect(json?.hasPrefix("bad.json:4: ") == true)
        let yaml = failure("openapi: 3.0.0\npaths:\n  /x:\n    get: [\n", file: "bad.yaml")
        #expect(yaml?.hasPrefix("bad.yaml:") == true && yaml?.contains("invalid YAML") == true)
        #expect(throws: SentinelError.self) { try OpenAPIDocument.load(path: Self.fixtures + "/missing.yaml") }
    }
}

extension OpenAPIDocumentTests {
    @Test func flowStyleYAMLStartingWithABraceIsRead() throws {
        let document = try OpenAPIDocument.parse(bytes: Array("{openapi: 3.0.1, paths: {/a: {get: {}}}}".utf8), file: "f.yaml")
        #expect(document.operations.map(\.pathTemplate) == ["/a"])
    }

    @Test func manyOperationsShareTheDocumentBudgets() throws {
        // Every path is the same $ref'd item of 1 000 parameters: a small file, a large expansion.
        let shared = (0..<1_000).map { #"{"name": "p\#($0)", "in": "query"}"# }.joined(separator: ",")
        let paths = (0..<200).map { ##""/p\##($0)": {"$ref": "#/components/pathItems/X"}"## }.joined(separator: ",")
        let components = #""components": {"pathItems": {"X": {"parameters": [\#(shared)], "get": {}}}}"#
        let document = try parse(#"{"openapi": "3.1.0", "paths": {\#(paths)}, \#(components)}"#)
        #expect(document.operations.count == 100, "100 000 parameters in all")
        #expect(document.operations.allSatisfy { $0.parameters.count == 1_000 })
    }
}
