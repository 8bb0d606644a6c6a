import Testing

@testable import Scan

/// Issue 77: generated and vendored code recognised by content, one signal at a time, and the
/// files a person writes that no signal may take.
@Suite struct GeneratedCodeClassifierTests {
    typealias Samples = GeneratedCodeSamples

    static func signals(_ path: String, _ text: String) -> [GeneratedCodeSignal] {
        GeneratedCodeClassifier.signals(path: path, sample: SourceSample(bounding: Array(text.utf8)))
    }

    @Test func aMinifiedLibraryShowsItsShapeBannerAndSourceMap() {
        #expect(Self.signals("static/js/libs/chartish.min.js", Samples.minifiedLibrary) == [.minified, .sourceMap, .libraryBanner])
    }

    @Test func aLongHandWrittenFileIsNotGenerated() {
        let text = Samples.handWritten(functions: 2_000)
        #expect(text.utf8.count > 400_000)
        #expect(Self.signals("static/js/app.js", text) == [])
        #expect(!MinifiedShape.matches(SourceSample(whole: Array(text.utf8))))
    }

    /// One long line (an embedded image) among a person's lines does not make the file minified.
    @Test func oneLongDataLineAmongHandWrittenLinesIsNotMinified() {
        let image = "const logo = 'data:image/png;base64," + String(repeating: "iVBORw0KGgoAAAANSUhEUgAA", count: 2_000) + "';\n"
        let text = image + Samples.handWritten(functions: 40)
        #expect(Self.signals("static/js/logo.js", text) == [])
    }

    @Test func minifiedCodeAloneIsMinified() {
        let shape = MinifiedShape(SourceSample(whole: Array(("'use strict';\n" + Samples.minifiedLine(bytes: 3_000)).utf8)))
        #expect(shape.isMinified)
        #expect(shape.longLines == 1 && shape.shortLines == 1)
        // Long lines of prose (a long string with spaces) are not a minifier's.
        let prose = String(repeating: "the quick brown fox jumps over the lazy dog ", count: 40)
        #expect(!MinifiedShape.matches(SourceSample(whole: Array("var text = '\(prose)';\n".utf8))))
    }

    /// Closure Compiler breaks its lines near 500 columns: none reaches a kilobyte, most are
    /// under 500 bytes, and the file is still minified.
    @Test func closureCompilersWrappedOutputIsMinified() {
        let text = Samples.closureWrapped(lines: 200)
        let shape = MinifiedShape(SourceSample(whole: Array(text.utf8)))
        #expect(shape.isMinified)
        #expect(shape.longLines == 200)
        #expect(Self.signals("static/loader.js", text) == [.minified])
    }

    /// A person's lines as long as Closure's (a component's class lists, a long condition) are
    /// spaced as people space them, and the file is not minified.
    @Test func longSpacedLinesAreNotMinified() {
        let classes = String(repeating: "px-4 py-2 text-sm font-medium ", count: 10)
        let line = "  return <button className=\"\(classes)\" onClick={() => onSelect(item.id)}>{item.label}</button>;\n"
        #expect(line.utf8.count > 300)
        let condition = "  if (" + (0..<12).map { "options.flag\($0) === true" }.joined(separator: " && ") + ") { enable(); }\n"
        #expect(condition.utf8.count > 300)
        let text = String(repeating: "function Item({ item, onSelect }) {\n" + line + condition + "}\n", count: 60)
        #expect(!MinifiedShape.matches(SourceSample(whole: Array(text.utf8))))
        #expect(Self.signals("src/Item.jsx", text) == [])
    }

    @Test func aSourceMapTrailerCountsOnlyOnTheLastLine() {
        let code = Samples.handWritten(functions: 3)
        #expect(Self.signals("lib/index.js", code + "//# sourceMappingURL=index.js.map\n\n") == [.sourceMap])
        #expect(Self.signals("lib/index.js", code + "/*# sourceMappingURL=data:application/json;base64,e30= */") == [.sourceMap])
        #expect(Self.signals("lib/index.js", "//# sourceMappingURL=index.js.map\n" + code) == [])
    }

    @Test func bundlerRuntimesAreRecognised() {
        #expect(Self.signals("static/js/main.js", Samples.webpackDevelopmentBundle) == [.bundlerRuntime])
        let chunk = "(self.webpackChunkapp=self.webpackChunkapp||[]).push([[179],{42:function(e){e.exports=1}}]);\n"
        #expect(Self.signals("static/js/179.js", chunk) == [.bundlerRuntime])
        let esbuild = "var __create = Object.create;\nvar __commonJS = (cb, mod) => function __require() {\n  return mod;\n};\n"
        #expect(Self.signals("public/app.js", esbuild) == [.bundlerRuntime])
        let umd = """
            (function (global, factory) {
              typeof exports === 'object' && typeof module !== 'undefined' ? module.exports = factory() :
              typeof define === 'function' && define.amd ? define(factory) : (global.Thing = factory());
            })(this, (function () { 'use strict'; return {}; }));

            """
        #expect(Self.signals("static/vendor/thing.js", umd) == [.bundlerRuntime])
    }

    /// Application code may name the bundler's globals; only its runtime's definitions count.
    @Test func usingABundlersGlobalIsNotItsRuntime() {
        let app = "__webpack_public_path__ = window.staticRoot;\nconst mode = import.meta.env.MODE;\n"
        #expect(Self.signals("src/main.js", app + Samples.handWritten(functions: 2)) == [])
    }

    @Test(arguments: [
        (
            "api/service_pb2.py",
            "# -*- coding: utf-8 -*-\n# Generated by the protocol buffer compiler.  DO NOT EDIT!\n# source: service.proto\n"
        ),
        ("api/service_pb2.pyi", "\"\"\"\n@generated by mypy-protobuf.  Do not edit manually!\n\"\"\"\n# @generated\nimport builtins\n"),
        ("web/client.ts", "// Code generated by openapi-generator. DO NOT EDIT.\nexport const x = 1;\n"),
        (
            "web/schema.js",
            "/**\n * This file was automatically generated by json-schema-to-typescript.\n * Do not modify it by hand.\n */\nexport const y = 2;\n"
        ),
    ])
    func generatedHeadersAreRecognised(path: String, text: String) {
        #expect(Self.signals(path, text) == [.generatedHeader])
    }

    @Test func aHeaderWithoutDoNotEditOrFarDownIsNot() {
        let migration = "# Generated by Django 4.2 on 2024-05-01 10:00\n\nfrom django.db import migrations\n"
        #expect(Self.signals("app/migrations/0002_auto.py", migration) == [])
        let late = String(repeating: "x = 1\n", count: 40) + "# generated, do not edit\n"
        #expect(Self.signals("app/settings.py", late) == [])
        let settings = "\"\"\"\nDjango settings for shop.\n\nGenerated by 'django-admin startproject' using Django 4.2.\n\"\"\"\n"
        #expect(Self.signals("shop/settings.py", settings + "DEBUG = False\n") == [])
    }

    /// A header quoted in a string after the first line of code (a test's expected output) is
    /// not the file's.
    @Test func onlyTheLeadingCommentsAreTheHeader() {
        let spec = """
            import { it, expect } from 'vitest'
            const expected = `
            /* eslint-disable */
            /**
             * This file was automatically generated. DO NOT MODIFY IT BY HAND.
             */
            export interface Config {}
            `

            """
        #expect(Self.signals("src/types.spec.ts", spec) == [])
        let lint =
            "/* eslint-disable */\n/**\n * This file was automatically generated.\n * DO NOT MODIFY IT BY HAND.\n */\nexport interface Config {}\n"
        #expect(Self.signals("src/types.ts", lint) == [.generatedHeader])
    }

    /// A component drawing an icon holds one long line of path data, which is no minifier's.
    @Test func aLongLineOfDataIsNotMinifiedCode() {
        let path = (0..<120).map { "M\($0).502 13.035c-.5 0-.756-.411-.756-.917" }.joined(separator: " ")
        let icon =
            "import type { SVGProps } from 'react';\n\nconst Icon = (props: SVGProps<SVGSVGElement>) => (\n"
            + "  <svg viewBox=\"0 0 512 512\" {...props}>\n    <path d=\"\(path)\" />\n  </svg>\n);\nexport default Icon;\n"
        #expect(Self.signals("src/components/svg/Icon.tsx", icon) == [])
    }

    @Test func libraryBannersNameAReleaseAndItsLicense() {
        let jquery = "/*! jQuery v3.7.1 | (c) OpenJS Foundation and other contributors | jquery.org/license */\nvar a = 1;\n"
        #expect(Self.signals("static/js/jquery.js", jquery) == [.libraryBanner])
        let multiline = "/*!\n * Bootstrap v5.3.2 (https://getbootstrap.com/)\n * Copyright 2011-2023 The Bootstrap Authors\n */\nvar b;\n"
        #expect(Self.signals("static/js/bootstrap.js", multiline) == [.libraryBanner])
        let extracted = "/*! For license information please see redoc.standalone.js.LICENSE.txt */\nvar c;\n"
        #expect(Self.signals("static/redoc.standalone.js", extracted) == [.libraryBanner])
        #expect(Self.signals("src/app.js", "/* app.js v2.0: the login page (c) us */\nvar d;\n") == [], "not a kept comment")
        // An unminified release opens with a plain comment naming a full release and its license.
        let owl =
            "/*\n *  jQuery OwlCarousel v1.3.3\n *\n *  Copyright (c) 2013 Bartosz Wojciechowski\n *  Licensed under MIT\n */\nvar o;\n"
        #expect(Self.signals("static/owl-carousel/owl.carousel.js", owl) == [.libraryBanner])
        let responsive =
            "/*\n * Foundation Responsive Library 4.0.0\n * Copyright 2013, ZURB\n * Free to use under the MIT license.\n*/\nvar f;\n"
        #expect(Self.signals("static/js/foundation/foundation.js", responsive) == [.libraryBanner])
        // A project's own license header names the license's version, not a release of its own.
        let apache =
            "/*\n * Copyright 2024 Example Inc.\n * Licensed under the Apache License, Version 2.0 (the \"License\");\n */\nvar g;\n"
        #expect(Self.signals("src/server.js", apache) == [], "a license's version")
        let gpl = "/* Copyright (C) 2021 us. Licensed under GPL v3.0 or later; see 10.1.2020 notes */\nvar h;\n"
        #expect(Self.signals("src/server.js", gpl) == [], "a license's version; a date is no release")
        #expect(Self.signals("src/app.js", "/* app.js 1.2.3 written by us */\nvar i;\n") == [], "a release without a license or copyright")
        #expect(Self.signals("src/app.js", "/*! The login page (c) us */\nvar d;\n") == [], "no version")
        #expect(Self.signals("src/app.js", "var e;\n/*! jQuery v3.7.1 | (c) OpenJS */\n") == [], "not at the top")
    }

    @Test(arguments: [
        "index-4f3a9c1b.js", "index-BxH3k2_Q.js", "vendor-B-x3k2Qa.js", "main.4f3a9c1b.js", "342.8e2f1a9c.chunk.js",
        "chunk-5ZLTQ2GZ.js", "app.0123456789abcdef0123.bundle.js", "runtime-main.4f3a9c1b.min.js",
    ])
    func hashedNames(name: String) {
        #expect(HashedChunkName.matches(name: name))
    }

    @Test(arguments: [
        "app.js", "user-settings2.js", "jquery-3.7.1.min.js", "react-dom.production.min.js", "my-component-v2Beta.js",
        "report-20240101.js", "chart.umd.js", "index-abcdefgh.js", "README-ABCDEFGH.js",
    ])
    func unhashedNames(name: String) {
        #expect(!HashedChunkName.matches(name: name))
    }

    /// A hashed name counts only together with a chunk's content.
    @Test func aHashedNameNeedsAChunksContent() {
        #expect(Self.signals("assets/index-4f3a9c1b.js", Samples.handWritten(functions: 3)) == [])
        let chunk = "import{r as a}from\"./vendor-9c1b4f3a.js\";\nexport function b(){return a()}\n"
        #expect(Self.signals("assets/index-4f3a9c1b.js", chunk) == [.hashedChunkName])
        let long = "const table = [" + Array(repeating: "1, 2, 3", count: 120).joined(separator: ", ") + "];\n"
        #expect(Self.signals("assets/index-BxH3k2_Q.js", long) == [.hashedChunkName])
        #expect(Self.signals("assets/index.js", chunk) == [])
    }

    /// A pull request's added file needs its whole content minified and one signal more.
    @Test func anAdditionNeedsMinifiedCodeAndOneSignalMore() {
        #expect(GeneratedCodeClassifier.isGeneratedAddition([.minified, .libraryBanner]))
        #expect(!GeneratedCodeClassifier.isGeneratedAddition([.minified]))
        #expect(!GeneratedCodeClassifier.isGeneratedAddition([.sourceMap, .generatedHeader, .libraryBanner]))
    }

    @Test func onlyScriptsAndPythonAreClassified() {
        #expect(GeneratedCodeClassifier.classifies("a/b.min.js") && GeneratedCodeClassifier.classifies("x_pb2.py"))
        #expect(GeneratedCodeClassifier.classifies("a/B.TSX"))
        #expect(!GeneratedCodeClassifier.classifies("a/App.vue") && !GeneratedCodeClassifier.classifies("a/style.css"))
        #expect(Self.signals("static/app.css", Samples.minifiedLibrary) == [])
    }
}
