import Foundation
import GlimtPure

struct FoldersCommand: Command {
    static let name = "folders"
    static let summary = "Watch folders: scanned when 'scan' is given none, and daily by the timer"
    static let usage = ["folders add DIR...", "folders remove DIR...", "folders list [--json]"]
    static let about = """
        The watched folders are kept in the settings file,
        \(ConfigFile.standard): a text file of 'folder /path' lines
        (a path may start with ~/; blank lines and lines starting with # are left alone), which you
        may edit by hand: a line that is neither is refused naming the file and the line. 'add' takes
        folders that are there now; 'remove' takes one that is gone too (a NAS no longer mounted).
        'list' marks the folders that are not there now.

        'glimt-pure scan' with no FOLDER scans them, and so does the daily scan of the systemd user
        timer the package installs: 'systemctl --user enable --now glimt-pure-scan.timer'.
        'glimt-pure status' lists the videos in them that are new since the last scan.
        """
    static let subcommands = ["add", "remove", "list"]
    struct Options: OptionGroup {
        let json = FlagOption("--json", "For 'list': print JSON")
    }
    static let positionals = OptionSpec.Completion.folder

    static func run(_ args: Arguments<Options>) throws -> Int32 {
        let config = try ConfigFile.location()
        let folders = Array(args.positionals.dropFirst())
        switch args.positionals.first {
        case "add":
            guard !folders.isEmpty else { throw UsageError("'folders add' needs at least one DIR") }
            for f in folders {
                let (path, added) = try WatchedFolders.add(f, config: config)
                Console.out(added ? "watching \(ShownPath.escaped(path))" : "\(ShownPath.escaped(path)) is watched already")
            }
        case "remove":
            guard !folders.isEmpty else { throw UsageError("'folders remove' needs at least one DIR") }
            for f in folders { Console.out("no longer watching \(ShownPath.escaped(try WatchedFolders.remove(f, config: config)))") }
        case "list", nil:
            guard folders.isEmpty else { throw UsageError("'folders list' takes no DIR") }
            let list = try WatchedFolders.list(config: config)
            if args.flag(\.json) {
                try Console.json(list)
            } else if list.isEmpty {
                Console.out("no folders are watched (add one: glimt-pure folders add DIR; kept in \(ShownPath.escaped(config)))")
            } else {
                for f in list { Console.out(ShownPath.escaped(f.path) + (f.present ? "" : "  (not there now)")) }
            }
        default:
            throw UsageError("'folders' needs add, remove or list (see: glimt-pure help folders)")
        }
        return ExitStatus.done
    }
}
