import Testing

/// The tiers of the suite (`make test-fast` runs the tests with neither tag; `make test` runs
/// all). Every suite that starts a process carries one of these, which `TestTierTests` checks
/// over the test sources, so that the fast tier needs no server, browser, JDK or other tool.
extension Tag {
    /// Starts a server on a loopback port: nginx, a Python server (`PythonServer`,
    /// `LyingServer`, `RecordingProxy`) or aria2.
    @Tag public static var needsServer: Self
    /// Runs a program we did not write to make or check something: bsdtar, unzip, Python,
    /// Java (epubcheck, `ZipInputStream`), Chromium, rclone, the release binary.
    @Tag public static var needsTools: Self
}
