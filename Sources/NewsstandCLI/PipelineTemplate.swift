import Foundation
import NewsstandBuild
import NewsstandCore

/// A CI pipeline for a new magazine (`newsstand init --ci`): `templates/ci/<kind>.yml` (or
/// `github-fan-out.yml`) with the release it installs newsstand from (version, tarball URL,
/// SHA-256) filled in.
struct PipelineTemplate {
    /// The CI systems there is a pipeline for.
    enum Kind: String, ChoiceArgument {
        case github, gitlab

        /// Where the pipeline goes, relative to the magazine (which is the repository's root).
        var path: String {
            switch self {
            case .github: ".github/workflows/newsstand.yml"
            case .gitlab: ".gitlab-ci.yml"
            }
        }
    }

    var kind: Kind
    /// One build job per issue and a gathering job (GitHub only).
    var fansOut: Bool
    /// The release tarball's URL and SHA-256 (lowercase hex).
    var releaseURL: String
    var releaseSHA256: String

    /// The characters a release URL may hold: it is written into YAML and expanded by a shell
    /// inside double quotes, so no quote, `$`, backquote, backslash, space or control character.
    private static let urlCharacters = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/?#[]@!&+,;=%")

    /// Why a pipeline cannot be made as asked.
    enum Refusal: Error, Equatable {
        /// Fanning out needs GitHub's matrix built from a job's output (GitLab has none).
        case fanOutNeedsGitHub
        /// The release URL holds a character that YAML or a shell would read as syntax.
        case unsafeReleaseURL
        /// The release URL holds `user:password@`, and a pipeline file is read by everyone
        /// with the repository.
        case credentialsInReleaseURL
    }

    /// Checks the release URL (an http(s) URL without credentials, of plain characters).
    init(kind: Kind, fansOut: Bool, releaseURL: String, releaseSHA256: String) throws(Refusal) {
        if fansOut && kind != .github { throw .fanOutNeedsGitHub }
        guard releaseURL.unicodeScalars.allSatisfy(Self.urlCharacters.contains) else { throw .unsafeReleaseURL }
        if Redacted.hasUserInformation(releaseURL) { throw .credentialsInReleaseURL }
        self.kind = kind
        self.fansOut = fansOut
        self.releaseURL = releaseURL
        self.releaseSHA256 = releaseSHA256.lowercased()
    }

    /// The pipeline's text, from the templates folder.
    func render(templates: URL) throws -> String {
        let source = templates.appendingPathComponent("ci/\(kind.rawValue)\(fansOut ? "-fan-out" : "").yml")
        return try String(contentsOf: source, encoding: .utf8)
            .replacingOccurrences(of: "@NEWSSTAND_VERSION@", with: ToolVersion.current)
            .replacingOccurrences(of: "@NEWSSTAND_URL@", with: releaseURL)
            .replacingOccurrences(of: "@NEWSSTAND_SHA256@", with: releaseSHA256)
    }
}
