import GlimtPure

/// `--from DAY` and `--to DAY`: the days a command covers, each a calendar day, in order.
struct DayRange: ParsedGroup {
    let from = DayOption("--from", "First day (YYYY-MM-DD)")
    let to = DayOption("--to", "Last day (YYYY-MM-DD, included)")

    static func value(_ args: Arguments<DayRange>) throws -> (from: String?, to: String?) {
        let (from, to) = (try args.value(\.from), try args.value(\.to))
        for (name, day) in [(args.options.from.spec.name, from), (args.options.to.spec.name, to)] {
            guard let day else { continue }
            do { try LibraryChoices.checkUsable(day) } catch let e as GlimtError { throw UsageError("\(name) \(e.reason)") }
        }
        if let from, let to, from > to { throw UsageError("\(args.options.from.spec.name) \(from) is after \(args.options.to.spec.name) \(to)") }
        return (from, to)
    }
}
