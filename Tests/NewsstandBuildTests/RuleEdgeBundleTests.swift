import Foundation
import NewsstandArchive
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import NewsstandTestSupport
import Testing

/// A movie goes into both bundles as it is, read by Python's zipfile. The other edges of the rules
/// are in `RuleEdgeTests`, in the fast tier.
@Suite(.tags(.needsTools)) struct RuleEdgeBundleTests {
    let rules = RuleEdgeTests()

    /// A movie has one file for both scales: no @2x variant is asked for, and both bundles
    /// carry it under its own name.
    @Test func aMovieNeedsNoRetinaVariantAndGoesIntoBothBundlesAsItIs() throws {
        let fixture = try rules.fixture(properties: RuleEdgeTests.valid)
        #expect(fixture.validate() == [])
        let output = try Shell.temporaryFolder()
        let (magazine, plans) = try fixture.plans()
        _ = try MagazineBuilder(magazine: magazine, options: BuildOptions(output: output, jobs: 1, versioned: false)).build(plans)
        for bundle in ["f-1.zip", "f-1@2x.zip"] {
            let names = try Shell.python(
                "import zipfile,sys; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))",
                [output.appendingPathComponent("f-1/\(bundle)").path]
            ).stdout.split(separator: "\n").map(String.init)
            #expect(names.contains("clip.mp4"), "\(bundle): \(names)")
            #expect(!names.contains("clip@2x.mp4"), "\(bundle): \(names)")
        }
    }
}
