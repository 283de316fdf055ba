import GlimtPure

/// How both sheets end.
enum SheetRun {
    /// One line per video that could not be read; the sheet was drawn without it.
    static func report(_ unreadable: [GlimtError], command: String) -> Int32 {
        for e in unreadable { Console.err("glimt-pure \(command): \(e)") }
        return unreadable.isEmpty ? ExitStatus.done : ExitStatus.failed
    }
}
