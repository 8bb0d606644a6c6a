import Testing

@testable import JavaScriptSyntax

/// `<script>` blocks of Vue and Svelte components, parsed where they stand in the file.
@Suite struct ScriptBlockTests {
    @Test func vueScriptSetupWithTypeScriptKeepsTheFilesPositions() throws {
        let source = """
            <template>
              <div @click="go">{{ msg }}</div>
            </template>

            <script setup lang="ts">
            import { ref } from 'vue'
            const msg = ref<string>('hi')
            </script>

            <style scoped>
            div { color: red }
            </style>
            """
        let program = try JavaScriptParser.parse(source: source, fileName: "App.vue")
        #expect(program.dialect == .typeScript)
        let root = program.root
        #expect(root.children.map(\.kind) == [.importDeclaration, .variableDeclaration])
        #expect(root.children[0].range.start.line == 6 && root.children[0].range.start.column == 1)
        let call = nodes(root, .call)[0]
        #expect(call.sexpr == "(call (identifier ref) (typeArguments (typeReference string _)) (arguments (string \"hi\")))")
        #expect(call.range.start.line == 7 && call.range.start.column == 13)
    }

    @Test func vueWithTwoBlocksAndPlainJavaScript() throws {
        let source = "<script>\nexport default { name: 'x' }\n</script>\n<script setup>\nconst a = <b/>\n</script>\n"
        let program = try JavaScriptParser.parse(source: source, fileName: "C.vue")
        #expect(program.dialect == .javaScript)
        // The `;` standing for each `</script>` ends the statement before it.
        #expect(program.root.children.map(\.kind) == [.exportDefault, .variableDeclaration])
        #expect(program.root.children.last?.range.start.line == 5)
    }

    @Test func svelteModuleAndInstanceScripts() throws {
        let source = """
            <script context="module" lang="ts">
              export const prerender = true;
            </script>
            <script lang="ts">
              let { data }: { data: PageData } = $props();
              let count = $state(0);
            </script>
            <h1>{data.title} {count}</h1>
            <script type="application/ld+json">{"not": "code"}</script>
            """
        let program = try JavaScriptParser.parse(source: source, fileName: "+page.svelte")
        #expect(program.dialect == .typeScript)
        let declarations = nodes(program.root, .variableDeclarator)
        #expect(declarations.count == 3)
        #expect(declarations[1].range.start.line == 5 && declarations[1].range.start.column == 7)
        #expect(nodes(program.root, .string).isEmpty)
    }

    @Test func tsxBlocksReadJSX() throws {
        let program = try JavaScriptParser.parse(
            source: "<script lang=\"tsx\">\nconst a = <b x={1 as number} />\n</script>", fileName: "T.vue")
        #expect(program.dialect == .tsx)
        #expect(nodes(program.root, .jsxElement).count == 1)
    }

    @Test func errorsInAScriptPointIntoTheComponent() {
        let error = rejection("<template><p/></template>\n<script>\nconst = 1\n</script>", "Bad.vue")
        #expect(error?.line == 3 && error?.column == 7)
    }

    @Test func aComponentWithoutScriptsIsAnEmptyProgram() throws {
        #expect(try program("<template><p>hi</p></template>", "A.vue").children.isEmpty)
    }

    /// Issue 76, H6: the blocks are found as the SFC compilers find them, not by searching for the
    /// text `<script`: one in a comment, an attribute value or a `<style>` swallowed the real script.
    @Test(arguments: [
        "<!-- an old <script> block -->\n",
        "<template>\n  <p title=\"<script>\">hi</p>\n</template>\n",
        "<template data-x='<script>'><p/></template>\n",
        "<style>\n.a::after { content: \"<script>\" }\n</style>\n",
        "<docs>\nUse <script> tags sparingly\n</docs>\n",
        "<template><template v-if=\"a\"><b/></template><!-- <script> --></template>\n",
    ])
    func aScriptTextOutsideABlockIsNotABlock(before: String) throws {
        let source = before + "<script>\nrun(input)\n</script>\n"
        let line = source.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0 == "run(input)" }! + 1
        let root = try program(source, "C.vue")
        #expect(root.children.map(\.kind) == [.expressionStatement])
        #expect(root.children.first?.range.start.line == line)
        #expect(nodes(root, .call).count == 1)
    }

    @Test func svelteMarkupTagsAndExpressionsAreNotBlocks() throws {
        let source = """
            <p>{"<script>"}</p>
            <button on:click={() => a > b} title="<script>">x</button>
            <script>
              run(input)
            </script>
            """
        let root = try program(source, "C.svelte")
        #expect(root.children.map(\.kind) == [.expressionStatement])
        #expect(root.children.first?.range.start.line == 4)
    }

    @Test(arguments: [
        ("<script lang = \"ts\">", JavaScriptDialect.typeScript), ("<script lang=ts>", .typeScript),
        ("<script lang=tsx>", .tsx), ("<script\n  setup\n  lang='TS'\n>", .typeScript), ("<script data-lang=\"ts\">", .javaScript),
    ])
    func theLangAttributeIsReadAsHTMLReadsIt(tag: String, dialect: JavaScriptDialect) throws {
        let program = try JavaScriptParser.parse(source: tag + "\nlet a = 1\n</script>", fileName: "C.vue")
        #expect(program.dialect == dialect)
    }

    @Test func aDataTypeAttributeIsNotTheType() throws {
        let root = try program("<script data-type=\"application/json\">\nrun(input)\n</script>", "C.vue")
        #expect(nodes(root, .call).count == 1)
        let data = try program("<script type = \"application/json\">\n{\"a\": 1}\n</script>", "C.vue")
        #expect(data.children.isEmpty)
    }

    @Test func dialectFollowsTheFileName() {
        #expect(JavaScriptDialect(fileName: "a.mjs") == .javaScript)
        #expect(JavaScriptDialect(fileName: "a.CJS") == .javaScript)
        #expect(JavaScriptDialect(fileName: "a.jsx") == .javaScript)
        #expect(JavaScriptDialect(fileName: "a.d.ts") == .typeScript)
        #expect(JavaScriptDialect(fileName: "a.mts") == .typeScript)
        #expect(JavaScriptDialect(fileName: "a.tsx") == .tsx)
        #expect(JavaScriptDialect(fileName: "a.py") == nil)
    }
}
