#if os(Linux) || os(macOS)
    import Foundation
    import NewsstandCore

    /// One pipe from a child to newsstand: the child writes (its standard output or error), a
    /// thread of ours reads. Both ends are close-on-exec, so no other child inherits them; the
    /// child gets its end by `dup2`, which clears that flag on the copy.
    final class ChildPipe: Sendable {
        let reading: Int32
        let writing: Int32
        private let open = Locked((reading: true, writing: true))

        private init(reading: Int32, writing: Int32) {
            self.reading = reading
            self.writing = writing
        }

        static func make(_ program: String) throws(ChildFailure) -> ChildPipe {
            var ends: [Int32] = [-1, -1]
            // `pipe2` is not in Swift's Glibc module. Between `pipe` and `fcntl` only a program
            // started elsewhere than through `ChildProcesses` (which makes pipes under its lock)
            // could inherit an end; it would only delay the end of the reading.
            guard pipe(&ends) == 0 else { throw .cannotStart(program: program, errno: errno) }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            return ChildPipe(reading: ends[0], writing: ends[1])
        }

        /// Closes our copy of the child's end, once the child has its own (or never started).
        func closeWriting() {
            if open.withLock({ state in
                defer { state.writing = false }
                return state.writing
            }) {
                close(writing)
            }
        }

        func closeReading() {
            if open.withLock({ state in
                defer { state.reading = false }
                return state.reading
            }) {
                close(reading)
            }
        }

        /// Reads both pipes to their end, giving each chunk to `received` (true: standard
        /// error), until both are closed by the child or `abandoned` says to stop waiting.
        static func drain(
            _ output: ChildPipe, _ errorOutput: ChildPipe, abandoned: () -> Bool, received: (Data, Bool) -> Void
        ) {
            var open = [true, true]
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while open.contains(true), !abandoned() {
                var fds = [
                    pollfd(fd: open[0] ? output.reading : -1, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: open[1] ? errorOutput.reading : -1, events: Int16(POLLIN), revents: 0),
                ]
                let ready = poll(&fds, nfds_t(fds.count), 200)
                if ready < 0, errno == EINTR { continue }
                guard ready >= 0 else { return }
                for index in 0..<2 where open[index] && fds[index].revents != 0 {
                    let fd = index == 0 ? output.reading : errorOutput.reading
                    let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                    if count > 0 {
                        received(Data(buffer[..<count]), index == 1)
                    } else if count == 0 || errno != EINTR {
                        open[index] = false
                    }
                }
            }
        }
    }
#endif
