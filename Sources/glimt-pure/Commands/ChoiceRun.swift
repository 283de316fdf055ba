import Foundation
import GlimtPure

/// What `exclude` and `include` do alike: each DAY or FILE set, one line each.
enum ChoiceRun {
    static func set(_ args: Arguments<PersonOptions>, excluded: Bool) throws -> Int32 {
        try args.requirePositionals("a DAY or a FILE")
        let choices = try PersonOptions.choices(args)
        var failed = false
        for target in args.positionals {
            do {
                let what = try choices.set(target, excluded: excluded)
                Console.out("\(excluded ? "excluded" : "included") \(ShownPath.escaped(what))")
            } catch {
                Console.err("glimt-pure \(excluded ? "exclude" : "include"): \(error)")
                failed = true
            }
        }
        return failed ? ExitStatus.failed : ExitStatus.done
    }
}
