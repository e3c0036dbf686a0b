import Foundation
import NewsstandCore

extension LibraryLayout {
    /// What opening does to the library's folders for the platform, before anything is written:
    /// the configured data protection class on every folder (and on the state's files, which an
    /// older version may have made without one), and the folders of what can be downloaded again
    /// kept out of backups. Both are set again on every open (a restored or copied folder can lose
    /// them); a failure is logged, never fatal: the library works without them.
    func prepareStorage(_ configuration: LibraryConfiguration) {
        let existingStateFiles = stateFiles.filter { FileStatus.kind(of: $0, followingLinks: false) == .regularFile }
        for url in folders + existingStateFiles {
            do {
                try configuration.fileProtection.apply(to: url)
            } catch {
                configuration.log(.notice, "file protection not set on \(url.path): \(error)")
            }
        }
        // Set either way: a library whose configuration stopped excluding them backs them up again.
        let excluded = configuration.excludesDownloadsFromBackup
        for folder in excludedFromBackup {
            do {
                try BackupExclusion.set(excluded, on: folder)
            } catch {
                configuration.log(.notice, "backup exclusion not set on \(folder.path): \(error)")
            }
        }
    }
}
