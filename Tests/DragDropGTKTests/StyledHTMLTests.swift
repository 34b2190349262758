import DragDropGTK
import Testing

/// The HTML subset text views exchange (P1, A7), without a display.
@Suite("Styled text as HTML")
struct StyledHTMLTests {
    @Test("P1, A7: bold and italic runs become <b> and <i>, and read back as the same runs")
    func roundTrip() {
        let runs = [
            StyledRun("Buy "), StyledRun("fresh", bold: true), StyledRun(" milk", bold: true, italic: true),
            StyledRun(" & <eggs>\nnow"),
        ]
        let html = StyledHTML.html(from: runs)
        #expect(html == "Buy <b>fresh</b><b><i> milk</i></b> &amp; &lt;eggs&gt;<br>now")
        #expect(StyledHTML.runs(fromHTML: html) == runs)
        #expect(StyledHTML.plainText(of: runs) == "Buy fresh milk & <eggs>\nnow")
    }

    @Test("A7: other apps' HTML: strong/em, paragraphs, character references, unknown tags dropped")
    func foreignHTML() {
        let runs = StyledHTML.runs(
            fromHTML: "<p>Caf&#233; <strong>open</strong></p><p><em>late</em> &amp; <span>early</span>&nbsp;</p>")
        #expect(
            runs == [
                StyledRun("Café "), StyledRun("open", bold: true), StyledRun("\n"), StyledRun("late", italic: true),
                StyledRun(" & early\u{A0}"),
            ])
    }

    @Test(
        "A7: what a page's HTML holds that is not text is left out: scripts, styles, the head and its title, comments (even with a '>' inside)"
    )
    func nonTextLeftOut() {
        let html = """
            <html><head><title>Shop</title><style>b { color: red }</style></head><body>\
            <!-- a > b --><script>if (a > b) alert(1)</SCRIPT><b>Bold</b> and <i>it</i>\
            <template><b>hidden</b></template></body></html>
            """
        #expect(
            StyledHTML.runs(fromHTML: html) == [StyledRun("Bold", bold: true), StyledRun(" and "), StyledRun("it", italic: true)])
        #expect(StyledHTML.runs(fromHTML: "a<script>never closed") == [StyledRun("a")], "an unclosed script hides the rest")
        #expect(StyledHTML.runs(fromHTML: "a<!-- never closed") == [StyledRun("a")])
    }

    @Test("P1, A7: '<', '>', '&' and a link's quotes joined to a combining mark are still escaped in the HTML we write, and read back as the same text")
    func escapesScalarsNotCharacters() {
        // '<' + U+0301 is one character: escaping by characters left it raw in our HTML.
        let runs = [StyledRun("<\u{301}script>\"\u{6D6} &\u{301}amp; >\u{301}")]
        let html = StyledHTML.html(from: runs)
        #expect(!html.unicodeScalars.contains("<"), "no raw '<' in \(html)")
        #expect(StyledHTML.runs(fromHTML: html) == runs)
        #expect(!StyledHTML.pangoMarkup(from: runs).unicodeScalars.contains("<"), "Pango would fail to parse it")
        // A link's address is an attribute: a quote there, joined to a mark or not, is escaped.
        let linked = StyledHTML.html(from: [StyledRun("x", link: "https://example.com/a\"\u{301}b")])
        #expect(linked.unicodeScalars.filter { $0 == "\"" }.count == 2, "only the attribute's own quotes: \(linked)")
    }

    @Test("Raw line breaks in HTML are spaces; unclosed tags keep their text")
    func whitespaceAndBrokenTags() {
        #expect(
            StyledHTML.runs(fromHTML: "one\ntwo <b>three") == [StyledRun("one two "), StyledRun("three", bold: true)])
        #expect(StyledHTML.runs(fromHTML: "a < b") == [StyledRun("a < b")])
    }

    @Test("A7: a carriage return is whitespace, raw or as &#13;, so a <br> after it is one line break")
    func carriageReturns() {
        // Found by fuzzing: "x\r<br>" read as "x\r\n", which a text view writes back as <br>
        // and reads as "x\n": the text changed on a round trip.
        let runs = StyledHTML.runs(fromHTML: "a\r<br>b&#13;<br>c\r\nd&#xD;")
        #expect(runs == [StyledRun("a \nb \nc d ")])
        #expect(StyledHTML.runs(fromHTML: StyledHTML.html(from: runs)) == runs)
    }

    @Test("A7: 100,000 trailing line breaks are dropped in linear time; text before them stays")
    func manyTrailingLineBreaks() {
        // Found by fuzzing (Fuzz/fuzz-html): each trailing break was removed from a copy of the
        // whole run, so a page of <br> took seconds per 100 KB in a debug build.
        let breaks = String(repeating: "<br>", count: 100_000)
        #expect(StyledHTML.runs(fromHTML: "<b>x</b>" + breaks) == [StyledRun("x", bold: true)])
        #expect(StyledHTML.runs(fromHTML: "x<br><b>" + breaks + "</b>" + breaks) == [StyledRun("x")])
        #expect(StyledHTML.runs(fromHTML: breaks).isEmpty)
    }

    @Test("A7: bold and italic written as CSS in spans (Qt's rich text, LibreOffice, browsers) are kept; closing an element ends only its own style")
    func cssStyles() {
        // As Qt's QTextEdit drags a selection (abridged).
        let qt =
            "<html><head><style type=\"text/css\">p { white-space: pre-wrap; }</style></head>"
            + "<body style=\" font-size:9pt; font-weight:400; font-style:normal;\"><p><span style=\" font-size:20pt; "
            + "font-weight:600;\">QTextEdit</span></p><p>You can edit the <span style=\" font-style:italic;\">textedit"
            + "</span> example and <span style='font-weight: bold'>save <span>it</span> now</span>.</p></body></html>"
        #expect(
            StyledHTML.runs(fromHTML: qt) == [
                StyledRun("QTextEdit", bold: true), StyledRun("\nYou can edit the "),
                StyledRun("textedit", italic: true), StyledRun(" example and "), StyledRun("save it now", bold: true),
                StyledRun("."),
            ])
        #expect(StyledHTML.runs(fromHTML: "<span style=\"font-weight:400\">plain</span>") == [StyledRun("plain")])
        #expect(
            StyledHTML.runs(fromHTML: "<b>bold <span style=\"font-style:oblique\">both</span></b> none") == [
                StyledRun("bold ", bold: true), StyledRun("both", bold: true, italic: true), StyledRun(" none"),
            ])
    }

    @Test(
        "A7: white space is collapsed as a browser does: LibreOffice's and Firefox's source indentation and line breaks are not text; <pre> and white-space: pre keep theirs"
    )
    func whitespaceCollapsedAsABrowserDoes() {
        // LibreOffice Writer's HTML of a bold word in a line: indented source, a line break
        // before </p>, a trailing newline.
        let writer = """
            <!DOCTYPE html><html><head><meta charset="utf-8"/><style>p { margin: 0 }</style></head>
            <body lang="en-US" dir="ltr">
            <p style="margin-bottom: 0cm">	Plain then
              <b>bold   words</b>
              and <i>italic</i>.
            </p>
            </body></html>

            """
        #expect(
            StyledHTML.runs(fromHTML: writer, collapsingWhiteSpace: true) == [
                StyledRun("Plain then "), StyledRun("bold words", bold: true), StyledRun(" and "),
                StyledRun("italic", italic: true), StyledRun("."),
            ])
        #expect(StyledHTML.runs(fromHTML: "<p>  one  </p>\n<p>\ttwo</p>", collapsingWhiteSpace: true) == [StyledRun("one\ntwo")])
        #expect(StyledHTML.runs(fromHTML: "a&nbsp;&nbsp;b", collapsingWhiteSpace: true) == [StyledRun("a\u{A0}\u{A0}b")], "no-break spaces are text")
        #expect(StyledHTML.runs(fromHTML: "<pre>x  y\n z</pre>w", collapsingWhiteSpace: true) == [StyledRun("x  y\n z\nw")])
        #expect(
            StyledHTML.runs(fromHTML: "<span style=\"white-space: pre-wrap\">  two  spaces </span>", collapsingWhiteSpace: true)
                == [StyledRun("  two  spaces ")])
    }

    @Test("P1, A7: our own styled text keeps every space through the HTML other apps get (two in a row, a tab, at a line's ends)")
    func ourSpacesSurviveHTML() {
        for runs in [
            [StyledRun("two  spaces")], [StyledRun("\ttab")], [StyledRun(" lead"), StyledRun("bold ", bold: true)],
            [StyledRun("line \n next")],
        ] {
            let html = StyledHTML.exportedHTML(from: runs)
            #expect(StyledHTML.runs(fromHTML: html, collapsingWhiteSpace: true) == runs, "\(html)")
            #expect(StyledHTML.runs(fromHTML: StyledHTML.html(from: runs)) == runs, "our own HTML read back as ours")
        }
        #expect(StyledHTML.exportedHTML(from: [StyledRun("plain words")]) == "plain words", "no wrapper when nothing collapses")
    }
}
