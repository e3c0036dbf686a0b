#if os(Linux) || os(macOS)
    /// What a command says when Ctrl-C (SIGINT) or SIGTERM stops it: what it kept and what it
    /// left to clean. Setting a note takes over both signals (`ChildProcesses`: children are
    /// stopped and waited for first), writes the note on standard error, and ends the process
    /// by the signal as before, so a shell still sees 130 for Ctrl-C.
    public enum InterruptionNote {
        /// Writes `note` on standard error if a signal stops the process from now on.
        public static func set(_ note: String) { ChildProcesses.setNote(note) }

        /// Says nothing more on a signal (the command is past the work the note was about).
        public static func clear() { ChildProcesses.setNote(nil) }
    }
#endif
