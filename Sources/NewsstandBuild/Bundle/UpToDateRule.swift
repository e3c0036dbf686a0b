import Foundation
import NewsstandCore

/// The one rule for whether a build may leave an issue's output as it is: the build is not
/// forced, the issue's record says its output was made with the settings this build would use,
/// and its inputs and outputs still match that record.
///
/// The record is checked where it is at hand: while validating, when the validation was taken
/// from it (`RecordedBuild.isCurrent`: every input had its recorded size and times and every
/// output is present), or else here, from the issue's manifest (`BuildCache.upToDateManifest`,
/// which also hashes inputs whose times moved).
struct UpToDateRule {
    /// The settings of this build's outputs.
    let settings: OutputSettings
    /// `--force`: nothing is up to date.
    let force: Bool

    /// Whether `plan`'s output in the output folder `root` is up to date.
    func isUpToDate(_ plan: IssuePlan, in root: OpenFolder) throws(BuildError) -> Bool {
        guard !force else { return false }
        if let recorded = plan.recorded, recorded.isCurrent, recorded.settings == settings { return true }
        guard let folder = try IssueOutputFolder.open(plan.name, in: root, create: false),
            let manifest = BuildCache.upToDateManifest(for: plan, output: folder, root: root)
        else { return false }
        return OutputSettings(of: manifest) == settings
    }
}
