import Foundation
import GlimtPure

struct ExcludeCommand: Command {
    static let name = "exclude"
    static let summary = "Leave a day or a video out of every film"
    static let usage = ["exclude DAY|FILE..."]
    static let about = """
        A DAY (YYYY-MM-DD) is left out of the film of one person (--person; with one person in the
        library it may be left out); a FILE (a scanned video) never competes for its day's second, in
        anyone's film. Kept by day and by content: rescans and moved files keep it. 'glimt-pure
        include' undoes it.
        """
    struct Options: OptionGroup {
        let choices = PersonOptions()
    }

    static func run(_ args: Arguments<Options>) throws -> Int32 { try ChoiceRun.set(args.group(\.choices), excluded: true) }
}
