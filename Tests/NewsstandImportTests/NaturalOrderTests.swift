import NewsstandImport
import Testing

@Suite struct NaturalOrderTests {
    @Test func numbersCompareAsNumbers() {
        #expect(
            NaturalOrder.sorted(["page10.png", "page2.png", "page1.png", "Page3.png", "page02b.png", "page9.png"])
                == ["page1.png", "page2.png", "page02b.png", "Page3.png", "page9.png", "page10.png"])
    }

    @Test func leadingZerosAndHugeNumbers() {
        // Longer than any integer: compared digit by digit, never parsed.
        let huge = "p" + String(repeating: "9", count: 40)
        #expect(NaturalOrder.sorted([huge, "p007", "p8", "p06"]) == ["p06", "p007", "p8", huge])
    }

    @Test func equalInNaturalOrderIsStillATotalOrder() {
        // "p1" and "P01" are the same page number: ordered by bytes so every machine agrees.
        #expect(NaturalOrder.sorted(["p1.png", "P01.png"]) == ["P01.png", "p1.png"])
        #expect(NaturalOrder.sorted(["P01.png", "p1.png"]) == ["P01.png", "p1.png"])
    }

    @Test func digitsBeforeLettersAndPrefixesFirst() {
        // "a1" is ("a", 1) and "a 1" is ("a ", 1): "a" is a prefix of "a ".
        #expect(NaturalOrder.sorted(["a", "1", "a1", "a 1", "ab"]) == ["1", "a", "a1", "a 1", "ab"])
    }
}
