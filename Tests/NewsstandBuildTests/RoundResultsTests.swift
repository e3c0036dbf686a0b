import Foundation
import NewsstandBuildTestSupport
import NewsstandCore
import Testing

@testable import NewsstandBuild

/// How a build round files its jobs' outputs: each issue's manifest gets its own outputs, by
/// issue and output, whatever the order the results come in; a missing output is an error that
/// names the issue and the output, never a skipped issue or one paired with another's bundle.
@Suite struct RoundResultsTests {
    private static func scale(_ issue: String, retina: Bool) -> IssueJob.Result {
        let bundle = retina ? "\(issue)@2x.zip" : "\(issue).zip"
        let record = OutputRecord(file: bundle, size: retina ? 4 : 1, sha256: "sha of \(bundle)")
        let made = ScaleOutput(
            bundle: record, index: OutputRecord(file: "index of \(bundle)", size: 1, sha256: ""),
            cover: OutputRecord(file: "cover of \(bundle)", size: 1, sha256: ""), inputs: [])
        return IssueJob.Result(issue: issue, output: .scale(made, retina: retina))
    }

    private static let scales: [IssueOutputKind] = [.normalScale, .retinaScale]

    @Test func aScaleMissingForOneIssueIsAnErrorNamingItAndTheOthersKeepTheirOwn() throws {
        let fixture = try MagazineFixture(issues: ["a-1", "b-1", "c-1"])
        let (_, plans) = try fixture.plans()
        let (a, b, c) = (plans[0], plans[1], plans[2])
        // b-1's @2x job made nothing: the results are one short, and c-1's follow b-1's normal.
        let results = RoundResults([
            Self.scale("a-1", retina: false), Self.scale("a-1", retina: true), Self.scale("b-1", retina: false),
            Self.scale("c-1", retina: false), Self.scale("c-1", retina: true),
        ])
        #expect(throws: BuildError.outputMissing(issue: "b-1", path: "b-1@2x.zip", output: "@2x bundle")) {
            try results.outputs(of: b, expected: Self.scales)
        }
        for plan in [a, c] {
            let outputs = try results.outputs(of: plan, expected: Self.scales)
            #expect(outputs.normal.bundle.file == "\(plan.name).zip")
            #expect(outputs.retina.bundle.file == "\(plan.name)@2x.zip")
        }
    }

    @Test func outputsArePairedByIssueWhateverTheirOrder() throws {
        let fixture = try MagazineFixture(issues: ["a-1", "b-1"])
        let (_, plans) = try fixture.plans()
        let results = RoundResults([
            Self.scale("b-1", retina: true), Self.scale("a-1", retina: true), Self.scale("b-1", retina: false),
            Self.scale("a-1", retina: false),
        ])
        for plan in plans {
            let outputs = try results.outputs(of: plan, expected: Self.scales)
            #expect(outputs.normal.bundle.file == "\(plan.name).zip")
            #expect(outputs.retina.bundle.file == "\(plan.name)@2x.zip")
        }
    }

    @Test func aMissingBookOrEPUBAndAnOutputMadeTwiceAreErrorsToo() throws {
        let fixture = try MagazineFixture(issues: ["a-1"])
        let (_, plans) = try fixture.plans()
        let plan = try #require(plans.first)
        let both = RoundResults([Self.scale("a-1", retina: false), Self.scale("a-1", retina: true)])
        #expect(throws: BuildError.outputMissing(issue: "a-1", path: "a-1.hpub", output: "Baker book")) {
            try both.outputs(of: plan, expected: Self.scales + [.book])
        }
        #expect(throws: BuildError.outputMissing(issue: "a-1", path: "a-1.epub", output: "EPUB")) {
            try both.outputs(of: plan, expected: Self.scales + [.epub])
        }
        let twice = RoundResults([
            Self.scale("a-1", retina: false), Self.scale("a-1", retina: true), Self.scale("a-1", retina: true),
        ])
        #expect(throws: BuildError.outputMadeTwice(issue: "a-1", path: "a-1@2x.zip", output: "@2x bundle")) {
            try twice.outputs(of: plan, expected: Self.scales)
        }
        let error = BuildError.outputMissing(issue: "b-1", path: "b-1@2x.zip", output: "@2x bundle")
        #expect(error.description.contains("issue 'b-1'") && error.description.contains("@2x bundle"))
    }
}
