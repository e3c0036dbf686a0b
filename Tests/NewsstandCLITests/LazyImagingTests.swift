import Foundation
import NewsstandTestSupport
import Testing

/// libvips is opened with `dlopen` when an image is first worked on, never at start-up
/// (CVips.h): binding it and the hundred libraries it brings cost 24 ms of every command.
/// The dynamic loader's own log (`LD_DEBUG=files`) says which libraries a run loaded.
@Suite(.tags(.needsTools)) struct LazyImagingTests {
    let sample = Shell.repositoryRoot.appendingPathComponent("Samples/aurora").path

    /// The libraries a run of `newsstand` loaded, by the loader's log.
    private func loaded(_ arguments: [String]) throws -> (Shell.Result, String) {
        let result = try Shell.run(Shell.newsstand, arguments, environment: ["LD_DEBUG": "files"])
        return (result, result.stderr)
    }

    @Test func aCommandWithNoImageToMakeDoesNotLoadLibvips() throws {
        let (result, log) = try loaded(["validate", sample])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(log.contains("file=libxml2.so.2"), "the loader's log is not what this test reads")
        #expect(!log.contains("libvips"), "validate loaded libvips")
    }

    @Test func aBuildThatDerivesImagesOpensLibvipsAndUsesIt() throws {
        let output = try Shell.temporaryFolder().appendingPathComponent("out")
        let (result, log) = try loaded(["build", sample, "--output", output.path])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("derived 19 normal-size image(s)"), "\(result.stdout)")
        #expect(log.contains("file=libvips.so.42 [0];  dynamically loaded by"), "libvips was not opened with dlopen")
    }
}
