import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

/// The canonical encoding of a bundle index is what Python's json module reads. The rest of the
/// index's rules are in `BundleIndexTests`, in the fast tier.
@Suite("Bundle index read by Python", .tags(.needsTools)) struct BundleIndexPythonTests {
    @Test func pythonReadsTheSameEntries() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("index-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try BundleIndexTests.sample.encoded().write(to: file)
        let out = try Shell.python(
            "import json,sys; d=json.load(open(sys.argv[1])); print(','.join(e['name'] for e in d['entries']), d['bundle']['size'])",
            [file.path]
        ).stdout
        #expect(out == "pages.plist,1-0.png,dir/\"q\".png 500\n")
    }
}
