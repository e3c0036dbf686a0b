import Foundation
import NewsstandCore
import NewsstandImaging

/// Derives one normal-size image straight into a folder, for outputs that are written afresh
/// on every run and keep no cache (`newsstand preview`). The build itself goes through
/// `ImagePreparer` and its cache.
public enum NormalSizeWriter {
    /// Writes the normal size of the open `master` as `name` in `folder` (under a temporary
    /// name, renamed into place when complete); returns its size in bytes. Blocking.
    public static func write(
        from master: OpenFile, named name: String, in folder: OpenFolder, issue: String, limits: ImagingLimits = ImagingLimits()
    ) throws(BuildError) -> Int64 {
        let pending: AtomicFile
        do {
            pending = try AtomicFile.create(named: name, in: folder)
        } catch {
            throw .output(issue: issue, error)
        }
        let derived: DerivedImage
        do throws(ImagingError) {
            derived = try NormalSizeDeriver(limits: limits).derive(
                from: .descriptor(master.descriptor, name: master.path),
                to: .descriptor(pending.file.descriptor, name: pending.temporaryPath))
        } catch {
            pending.discard()
            throw .image(issue: issue, path: master.path, error)
        }
        do {
            // Best effort, like every file of the preview: it is written again by the next run.
            try pending.commit(.bestEffort)
        } catch {
            throw .output(issue: issue, error)
        }
        return derived.byteCount
    }
}
