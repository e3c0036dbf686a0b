import Foundation
import NewsstandCore
import NewsstandReader

/// The daemon's download folder (`files/` in the engine's folder). Per key: the file aria2
/// writes (`name#generation`), aria2's control file beside it while the download is unfinished
/// (`.aria2`), and the engine's record of the job (`.json`, `Aria2JobRecord`). Only a key with
/// a record is the engine's: nothing else is handed over, nothing not named as a key's is
/// deleted, and every file is reached by name in this open folder, never through a link.
struct Aria2Files: Sendable {
    static let folderName = "files"

    let folder: OpenFolder

    /// The folder's path as aria2 is told it (its `dir`).
    var path: String { folder.path }

    /// Opens (or creates) the download folder in the engine's folder.
    static func open(in engineFolder: OpenFolder) throws(FileSystemError) -> Aria2Files {
        Aria2Files(folder: try engineFolder.makeFolder(folderName))
    }

    func record(of id: TransferID) -> Aria2JobRecord? { Aria2JobRecord.read(for: id, in: folder) }

    /// Keys whose file is here without a record: what aria2 wrote to a download after the
    /// engine had dealt with it (removed its record and file), when its stop was outrun by a busy
    /// daemon or a killed daemon's session brought the download back. Never handed over; removed
    /// once aria2 does not list it (`Aria2Transfers.sweep`).
    /// Read from the folder's names alone (a record that exists but does not read back keeps its
    /// file): a poll looks every round, and reading every record there was repeated work.
    func unrecordedIDs() -> [TransferID] {
        let entries = (try? folder.entries()) ?? []
        let names = Set(entries.compactMap(\.name))
        return entries.compactMap { entry in
            guard entry.kind == .regularFile, let id = entry.name.flatMap(Aria2Key.id(ofFileName:)),
                !names.contains(Aria2Key.recordFileName(of: id))
            else { return nil }
            return id
        }
    }

    /// Every key with a record.
    func recordedIDs() -> [TransferID] {
        ((try? folder.entries()) ?? []).compactMap { entry in
            entry.kind == .regularFile ? entry.name.flatMap(Aria2Key.id(ofRecordName:)) : nil
        }
    }

    /// The size of the key's file, when it is a regular file (a link or anything else there is
    /// no file of ours).
    func dataSize(of id: TransferID) -> Int64? {
        guard let status = folder.status(of: Aria2Key.fileName(of: id)), status.kind == .regularFile else { return nil }
        return status.size
    }

    func hasControlFile(_ id: TransferID) -> Bool {
        folder.status(of: Aria2Key.controlFileName(of: id)) != nil
    }

    /// The key's file, as handed to the library.
    func url(of id: TransferID) -> URL {
        URL(fileURLWithPath: folder.path(of: Aria2Key.fileName(of: id)))
    }

    /// Whether the key's file is a finished download that aria2 no longer lists (it forgets
    /// finished downloads when it restarts): aria2 keeps a control file beside every
    /// unfinished one from its first byte and removes it only on completion, so a file with a
    /// record, bytes and no control file is complete, and of the recorded size when one is known.
    func isComplete(_ id: TransferID, _ record: Aria2JobRecord) -> Bool {
        guard let size = dataSize(of: id), size > 0, !hasControlFile(id) else { return false }
        return record.expectedSize.map { $0 == size } ?? true
    }

    /// The key of a download whose file aria2 reports at `path`: only a file directly in this
    /// folder, named exactly as a key, whose GID is that key's. Anything else (another folder,
    /// `..`, another name) is not the engine's.
    func id(of status: Aria2Status) -> TransferID? {
        guard let path = status.path, path.hasPrefix(folder.path + "/") else { return nil }
        let name = String(path.dropFirst(folder.path.count + 1))
        guard OpenFolder.isSingleName(name), let id = Aria2Key.id(ofFileName: name), Aria2Key.gid(of: id) == status.gid else {
            return nil
        }
        return id
    }

    /// Gives `old`'s bytes to `new` (a later generation of the same issue, from the same URL):
    /// aria2 then continues them with `Range`. The control file is linked before the file is
    /// renamed, so that at no moment does an unfinished file lack one (it would look complete).
    func move(_ old: TransferID, to new: TransferID) throws(FileSystemError) {
        let oldControl = Aria2Key.controlFileName(of: old)
        if folder.kind(of: oldControl) == .regularFile {
            try folder.removeRegularFile(Aria2Key.controlFileName(of: new))
            try folder.hardLink(oldControl, to: Aria2Key.controlFileName(of: new))
        }
        try folder.rename(Aria2Key.fileName(of: old), to: Aria2Key.fileName(of: new))
        try remove(old)
    }

    /// Removes the temporary files of records whose writer was killed while writing them (a
    /// record is written under a temporary name and renamed: `Aria2JobRecord.write`). A running
    /// writer's are left to it, and nothing that is not named as a key's record is touched.
    func removeAbandonedRecordWrites() {
        AtomicFile.removeAbandonedTemporaries(in: folder) { Aria2Key.id(ofRecordName: $0) != nil }
    }

    /// Removes the control-file saves a killed daemon left (`Aria2Key.controlSaveName`). Only
    /// while no daemon of this folder runs (its launch): a running one renames them away itself.
    func removeAbandonedControlSaves() {
        for entry in (try? folder.entries()) ?? [] where entry.kind == .regularFile {
            guard let name = entry.name, Aria2Key.id(ofControlSaveName: name) != nil else { continue }
            try? folder.removeRegularFile(name)
        }
    }

    /// Removes the key's file, control file (and a save of it a killed daemon left) and record
    /// (regular files only).
    func remove(_ id: TransferID) throws(FileSystemError) {
        try folder.removeRegularFile(Aria2Key.fileName(of: id))
        try folder.removeRegularFile(Aria2Key.controlFileName(of: id))
        try folder.removeRegularFile(Aria2Key.controlSaveName(of: id))
        try folder.removeRegularFile(Aria2Key.recordFileName(of: id))
    }
}
