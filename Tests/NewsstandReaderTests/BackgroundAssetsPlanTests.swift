import Foundation
import NewsstandCore
import NewsstandReader
import Testing

/// The decisions a Background Assets extension takes from the catalog, without the framework.
@Suite("Background Assets plan")
struct BackgroundAssetsPlanTests {
    static let catalog = URL(string: "https://cdn.example.com/mag/issues.plist")!

    static func entry(_ name: String, day: Int, size: Int? = 1000, retinaSize: Int? = 2000, content: String? = nil)
        -> CatalogEntry
    {
        var entry = CatalogEntry(
            name: name, title: name, date: Date(timeIntervalSince1970: Double(day) * 86_400), cover: "\(name)/cover.png",
            content: content ?? "\(name)/\(name).zip")
        entry.contentSize = size
        entry.retinaContentSize = retinaSize
        return entry
    }

    @Test func theNewestIsEssentialAndTheNextOnesAreNot() {
        let entries = [
            Self.entry("a-1", day: 1), Self.entry("a-3", day: 3), Self.entry("a-2", day: 2), Self.entry("a-4", day: 4),
        ]
        let plan = BackgroundAssetsPlan.make(
            entries: entries, catalogURL: Self.catalog, scale: .retina, installed: [], nonEssentialCount: 2,
            essentialAllowance: nil,
            allowance: nil)
        #expect(plan.essential.map(\.name) == ["a-4"])
        #expect(plan.essential.first?.url.absoluteString == "https://cdn.example.com/mag/a-4/a-4@2x.zip")
        #expect(plan.essential.first?.size == 2000)
        #expect(plan.essential.first?.isEssential == true)
        #expect(plan.nonEssential.map(\.name) == ["a-3", "a-2"])
        #expect(plan.nonEssential.allSatisfy { !$0.isEssential })
        #expect(plan.skipped == [.init(name: "a-1", reason: .beyondCount)])
    }

    @Test func allowancesAreNeverExceeded() {
        let entries = [
            Self.entry("big", day: 9, size: 5000), Self.entry("b-8", day: 8, size: 600), Self.entry("b-7", day: 7, size: 600),
            Self.entry("b-6", day: 6, size: 300),
        ]
        let plan = BackgroundAssetsPlan.make(
            entries: entries, catalogURL: Self.catalog, scale: .normal, installed: [], nonEssentialCount: 3,
            essentialAllowance: 4000,
            allowance: 1000)
        #expect(plan.essential.isEmpty)
        #expect(plan.nonEssential.map(\.name) == ["b-8", "b-6"])
        #expect(
            plan.skipped == [
                .init(name: "big", reason: .overAllowance(size: 5000, remaining: 4000)),
                .init(name: "b-7", reason: .overAllowance(size: 600, remaining: 400)),
            ])
        #expect(plan.nonEssential.map(\.size).reduce(0, +) <= 1000)
    }

    @Test func whatTheSystemCannotFetchIsLeftOutWithTheReason() {
        let entries = [
            Self.entry("plain", day: 5, content: "http://cdn.example.com/plain.zip"),
            Self.entry("nosize", day: 4, retinaSize: nil),
            Self.entry("have", day: 3), Self.entry("twice", day: 2), Self.entry("twice", day: 1),
        ]
        let plan = BackgroundAssetsPlan.make(
            entries: entries, catalogURL: Self.catalog, scale: .retina, installed: ["have"], nonEssentialCount: 10,
            essentialAllowance: nil,
            allowance: nil)
        #expect(plan.essential.isEmpty)
        #expect(plan.nonEssential.map(\.name) == ["twice"])
        #expect(
            plan.skipped == [
                .init(name: "plain", reason: .notHTTPS), .init(name: "nosize", reason: .sizeUnknown),
                .init(name: "have", reason: .installed),
                .init(name: "twice", reason: .listedTwice),
            ])
    }

    @Test func identifiersReadBack() {
        let identifier = BackgroundAssetsPlan.identifier(of: "f-2.v1", scale: .retina)
        #expect(identifier == "newsstand.f-2.v1.retina")
        #expect(BackgroundAssetsPlan.issueName(ofIdentifier: identifier)?.name == "f-2.v1")
        #expect(BackgroundAssetsPlan.issueName(ofIdentifier: identifier)?.scale == .retina)
        for foreign in ["newsstand.x", "other.f-2.normal", "newsstand.../x.normal", "newsstand.a.huge"] {
            #expect(BackgroundAssetsPlan.issueName(ofIdentifier: foreign) == nil, "\(foreign)")
        }
    }
}
