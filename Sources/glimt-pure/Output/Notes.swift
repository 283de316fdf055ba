import GlimtPure

/// What the scan had to say of the library's videos (a capture date passed over, a file cut
/// short), one line each on stderr, as the scan said it: every command that shows them says it.
enum Notes {
    static func print(_ candidates: [DayReport.Candidate], command: String) {
        for c in candidates {
            for note in c.notes { Console.err("glimt-pure \(command): \(ShownPath.escaped(c.video)): \(note)") }
        }
    }
}
