import NewsstandTestSupport
import Testing

/// The fixture marks the validation tests assert against: stripped from the text, each one
/// naming its line.
@Suite struct MarkedTextTests {
    @Test func marksAreStrippedAndNameTheirLines() {
        let marked = MarkedText("<a>⟦first⟧\n<b/>\n<c>x</c>⟦third⟧ ⟦also-third⟧\n")
        #expect(marked.text == "<a>\n<b/>\n<c>x</c> \n")
        #expect(marked.lines == ["first": 1, "third": 3, "also-third": 3])
        #expect(marked.line(of: "missing") == 0, "a mark the text lacks matches no diagnostic's line")
    }

    @Test func anUnclosedMarkStaysInTheText() {
        let marked = MarkedText("a\n⟦open")
        #expect(marked.text == "a\n⟦open")
        #expect(marked.lines.isEmpty)
    }
}
