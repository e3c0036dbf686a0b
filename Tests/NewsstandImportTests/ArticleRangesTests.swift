import NewsstandImport
import Testing

@Suite struct ArticleRangesTests {
    @Test func rangesBecomeArticles() throws {
        let ranges = try ArticleRanges(parsing: "1,2-5,6-")
        #expect(try ranges.articles(pageCount: 8) == [0...0, 1...4, 5...7])
        #expect(try ranges.articles(pageCount: 6) == [0...0, 1...4, 5...5])
        #expect(try ArticleRanges(parsing: "1-").articles(pageCount: 3) == [0...2])
        #expect(ArticleRanges.onePerPage(pageCount: 3) == [0...0, 1...1, 2...2])
    }

    @Test(arguments: [
        ("", ArticleListError.malformed(item: "")),
        ("1,,2", .malformed(item: "")),
        ("0-2", .malformed(item: "0-2")),
        ("1-2-3", .malformed(item: "1-2-3")),
        ("-3", .malformed(item: "-3")),
        ("1,+2", .malformed(item: "+2")),
        ("1, 2", .malformed(item: " 2")),
        ("1,٢", .malformed(item: "٢")),
        ("1-9999999", .malformed(item: "1-9999999")),
        ("3-1", .backwards(item: "3-1")),
        ("1-3,2-4", .overlap(item: "2-4", previous: "1-3")),
        ("1,1", .overlap(item: "1", previous: "1")),
        ("1,3", .gap(from: 2, to: 2)),
        ("1-2,5-", .gap(from: 3, to: 4)),
        ("2-", .gap(from: 1, to: 1)),
        ("1-,5", .afterOpenEnd(item: "5", openRange: "1-")),
    ])
    func badListsAreRefusedWhenParsed(text: String, error: ArticleListError) {
        #expect(throws: error) { try ArticleRanges(parsing: text) }
    }

    @Test func listsThatDoNotFitThePagesAreRefusedBeforeRendering() throws {
        #expect(throws: ArticleListError.pastTheEnd(item: "3-9", pageCount: 5)) {
            try ArticleRanges(parsing: "1-2,3-9").articles(pageCount: 5)
        }
        #expect(throws: ArticleListError.pastTheEnd(item: "1-6", pageCount: 5)) {
            try ArticleRanges(parsing: "1-6,7-").articles(pageCount: 5)
        }
        #expect(throws: ArticleListError.gap(from: 4, to: 5)) { try ArticleRanges(parsing: "1,2-3").articles(pageCount: 5) }
        #expect(throws: ArticleListError.tooLong(limit: ArticleRanges.maximumLength)) {
            try ArticleRanges(parsing: String(repeating: "1", count: ArticleRanges.maximumLength + 1))
        }
    }
}
