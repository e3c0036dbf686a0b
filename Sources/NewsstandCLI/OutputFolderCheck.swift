import Foundation
import NewsstandBuild

/// The output-folder rule as the commands apply it: before validating or writing anything,
/// an output folder that overlaps the magazine is a usage mistake (exit status 2), reported
/// on one line that names both folders.
enum OutputFolderCheck {
    /// The exit status to return when `output` overlaps `magazine` (after printing why), or nil.
    static func refusal(_ command: String, output: String, magazine: String, console: Console) -> Int32? {
        do {
            try OutputFolderRule.check(outputPath: output, magazinePath: magazine)
            return nil
        } catch {
            console.err("newsstand \(command): error: \(error)")
            return ExitStatus.usage
        }
    }
}
