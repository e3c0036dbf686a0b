import Foundation
import NewsstandImport
import Testing

@Suite struct ImportRequestTests {
    @Test func daysAreMidnightUTC() {
        #expect(ImportRequest.date(fromDay: "2026-03-01") == Date(timeIntervalSince1970: 1_772_323_200))
        #expect(ImportRequest.date(fromDay: "2024-02-29") != nil)
    }

    @Test(arguments: ["2026-02-30", "2025-02-29", "2026-13-01", "2026-3-1", "26-03-01", "2026-03-01T08:00:00Z", "", "２０２６-03-01"])
    func notADay(text: String) {
        #expect(ImportRequest.date(fromDay: text) == nil)
    }
}
