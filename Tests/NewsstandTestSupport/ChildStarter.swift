import Foundation
import NewsstandCore
import NewsstandProcess

/// The one thread every `TestChild` is started from. The parent-death signal that
/// `TestChildGuard` sets fires when the *thread* that started the child ends, not the process:
/// a child started from `offPool`'s thread, or a `BlockingWork` one, would be killed as soon as
/// that thread returned. This thread lives as long as the test process.
enum ChildStarter {
    private static let jobs = Locked<[@Sendable () -> Void]>([])
    private static let waiting = DispatchSemaphore(value: 0)
    private static let thread: Void = {
        let thread = Thread {
            while true {
                waiting.wait()
                let job = jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
                job?()
            }
        }
        thread.name = "newsstand.tests.child-starter"
        thread.start()
    }()

    /// Starts `program` with `arguments` on the starter thread and returns what it started.
    static func start(
        _ program: String, _ arguments: [String], options: ChildOptions
    ) -> Result<ChildProcess, ChildFailure> {
        _ = thread
        let started = Locked<Result<ChildProcess, ChildFailure>?>(nil)
        let done = DispatchSemaphore(value: 0)
        jobs.withLock { jobs in
            jobs.append {
                started.withLock { $0 = ChildProcess.start(program, arguments, options: options) }
                done.signal()
            }
        }
        waiting.signal()
        done.wait()
        return started.current ?? .failure(.cancelled)
    }
}
