import Testing

@testable import DAST
@testable import Web

/// Forms: controls of every kind, ownership, defaults, and what a submission sends.
@Suite struct HTMLFormTests {
    private static let page = WebURL("http://site.test:8080/shop/cart?step=2#top")

    private func forms(_ html: String) throws -> [HTMLForm] {
        HTMLDocument.parse(html, url: try #require(Self.page)).forms
    }

    private func submission(_ html: String) throws -> [String] {
        try #require(forms(html).first).submission().map { "\($0.name)=\($0.value)" }
    }

    @Test func everyControlKindIsRead() throws {
        let html = """
            <form action="/buy" method="post" enctype="multipart/form-data" id="f" name="buy">
            <input name="t"><input type="HIDDEN" name="h" value="v"><input type="password" name="p">
            <input type="email" name="e" required><input type="number" name="n" min="3"><input type="url" name="u">
            <input type="search" name="s"><input type="tel" name="tel"><input type="date" name="d">
            <input type="checkbox" name="c1" checked><input type="checkbox" name="c2" value="yes">
            <input type="radio" name="r" value="a"><input type="radio" name="r" value="b" checked>
            <select name="sel"><option>One</option><option value="2" selected>Two</option></select>
            <textarea name="ta">
            default &amp; text</textarea><input type="file" name="f"><input type="submit" name="go" value="Go">
            <input type="image" name="img" src="/i.png"><input type="reset" name="rs"><button type="button" name="b">
            <input type="range" name="rg"><input type="bogus" name="bg" maxlength="3"><input type="text" name="dis" disabled>
            </form>
            """
        let form = try #require(forms(html).first)
        #expect(form.action.string == "http://site.test:8080/buy")
        #expect(form.method == "POST")
        #expect(form.enctype == HTMLForm.multipart)
        #expect(form.id == "f" && form.name == "buy")
        #expect(
            form.fields.map(\.kind) == [
                .text, .hidden, .password, .email, .number, .url, .search, .tel, .date, .checkbox, .checkbox, .radio,
                .radio, .select, .textarea, .file, .submit, .image, .reset, .button, .other, .text, .text,
            ])
        let byName = Dictionary(form.fields.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byName["e"]?.isRequired == true)
        #expect(byName["n"]?.minimum == "3")
        #expect(byName["c1"]?.checked == true && byName["c1"]?.value == "on")
        #expect(byName["sel"]?.options == ["One", "2"])
        #expect(byName["sel"]?.value == "2")
        #expect(byName["ta"]?.value == "default & text")
        #expect(byName["rg"]?.type == "range")
        #expect(byName["bg"]?.maxLength == 3 && byName["bg"]?.type == "bogus")
        #expect(byName["dis"]?.isDisabled == true)
        #expect(
            form.submission().map { "\($0.name)=\($0.value)" } == [
                "t=sentinel", "h=v", "p=Sentinel-123", "e=sentinel@example.com", "n=3", "u=http://site.test:8080/",
                "s=sentinel", "tel=5550100", "d=2024-01-01", "c1=on", "r=b", "sel=2", "ta=default & text", "go=Go",
                "rg=50", "bg=sen",
            ])
    }

    @Test func defaultsFollowBrowsers() throws {
        let form = try #require(forms(#"<form method="put" enctype="application/json"><input name="q"></form>"#).first)
        #expect(form.action.string == "http://site.test:8080/shop/cart?step=2", "the page URL without fragment")
        #expect(form.method == "GET")
        #expect(form.enctype == HTMLForm.urlEncoded)
        #expect(try forms(#"<form method="POST" enctype="TEXT/PLAIN">"#).first?.enctype == HTMLForm.plainText)
        #expect(try forms(#"<form action="javascript:go()"><input name="a"></form>"#).isEmpty)
        #expect(try forms(#"<base href="/b/"><form action="x"></form>"#).first?.action.string == "http://site.test:8080/b/x")
    }

    @Test func ownershipFollowsTheFormElementAndTheFormAttribute() throws {
        let html = """
            <input name="before" form="second"><input name="orphan">
            <form id="first"><input name="a"><form id="nested"><input name="b"></form><input name="c">
            <form id="second" action="/2"><input name="d"><input name="e" form="first"><input name="f" form="missing"></form>
            <button name="g" form="second" value="1">
            """
        let result = try forms(html)
        #expect(result.map(\.id) == ["first", "second"])
        #expect(result[0].fields.map(\.name) == ["a", "b", "e"])
        #expect(result[1].fields.map(\.name) == ["before", "d", "g"])
    }

    @Test(
        "submission picks what a browser sends",
        arguments: [
            (#"<form><input type="radio" name="r" value="1"><input type="radio" name="r" value="2"></form>"#, ["r=1"]),
            (#"<form><input type="checkbox" name="c"><input type="checkbox" name="d" checked value=""></form>"#, ["d="]),
            (#"<form><select name="s"><option value="">none<option>B</select></form>"#, ["s="]),
            (#"<form><select name="s"><optgroup><option> Two  words </option></optgroup></select></form>"#, ["s=Two words"]),
            (#"<form><select name="s"></select><select name="m"><option selected>x<option selected>y</select></form>"#, ["m=x"]),
            (#"<form><input type="submit" value="anon"><input type="submit" name="second" value="2"></form>"#, []),
            (#"<form><button name="b" value="v">B</button><button name="c">C</button></form>"#, ["b=v"]),
            (#"<form><button type="button" name="x"><button type="reset" name="y"><button name="z"></form>"#, ["z="]),
            (#"<form><input name="t" maxlength="4"><input type="number" name="n" min="abc"></form>"#, ["t=sent", "n=1"]),
            (#"<form><input name="t" value="keep" maxlength="2"><textarea name="a"></textarea></form>"#, ["t=keep", "a=sentinel"]),
            (#"<form><fieldset disabled><input name="x"></fieldset><input name="y"></form>"#, ["y=sentinel"]),
            (#"<form><input type="hidden" name="csrf"><input value="noname"></form>"#, ["csrf="]),
            (#"<form><input type="week" name="w"><input type="color" name="c"></form>"#, ["w=2024-W01", "c=#000000"]),
        ])
    func submits(html: String, expected: [String]) throws {
        #expect(try submission(html) == expected)
    }
}
