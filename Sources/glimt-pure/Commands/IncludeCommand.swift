import Foundation
import GlimtPure

struct IncludeCommand: Command {
    static let name = "include"
    static let summary = "Bring back an excluded day or video"
    static let usage = ["include DAY|FILE..."]
    static let about = "Undoes 'glimt-pure exclude' for each DAY (YYYY-MM-DD) or FILE."
    struct Options: OptionGroup {
        let choices = PersonOptions()
    }

    static func run(_ args: Arguments<Options>) throws -> Int32 { try ChoiceRun.set(args.group(\.choices), excluded: false) }
}
