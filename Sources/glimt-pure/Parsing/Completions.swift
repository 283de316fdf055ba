import Foundation
import GlimtPure

struct CompletionsCommand: Command {
    static let name = "completions"
    static let summary = "Print the shell completions for bash, zsh or fish"
    static let usage = ["completions bash|zsh|fish"]
    static let about = """
    Prints a completion script made from the same command definitions as the help texts.
    tools/install.sh installs all three; by hand, e.g.
    'glimt-pure completions bash > ~/.local/share/bash-completion/completions/glimt-pure'.
    """
    static let options: [OptionSpec] = []
    static let positionals = OptionSpec.Completion.choices(["bash", "zsh", "fish"])

    static func run(_ args: Arguments) throws -> Int32 {
        try args.requirePositionals("a shell: bash, zsh or fish", min: 1, max: 1)
        switch args.positionals[0] {
        case "bash": Console.out(Completions.bash())
        case "zsh": Console.out(Completions.zsh())
        case "fish": Console.out(Completions.fish())
        default: throw UsageError("shells are bash, zsh or fish, not '\(args.positionals[0])'")
        }
        return ExitStatus.done
    }
}

struct ManualCommand: Command {
    static let name = "manual"
    static let summary = "Print the manual page (roff), as 'man' shows it"
    static let usage = ["manual"]
    static let about = "Prints the glimt-pure(1) manual page, made from the same definitions as the help texts. tools/install.sh installs it."
    static let options: [OptionSpec] = []
    static let positionals = OptionSpec.Completion.none

    static func run(_ args: Arguments) throws -> Int32 {
        try args.requirePositionals("no arguments", min: 0, max: 0)
        Console.out(Manual.page())
        return ExitStatus.done
    }
}

/// Shell completion scripts, from the commands' option definitions.
enum Completions {
    static func words(_ c: Command.Type) -> [String] { c.allOptions.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) } }

    /// What bash offers for a value or a positional argument.
    static func bashReply(_ completion: OptionSpec.Completion) -> String {
        switch completion {
        case .file: return "COMPREPLY=($(compgen -f -- \"$cur\"))"
        case .folder: return "COMPREPLY=($(compgen -d -- \"$cur\"))"
        case .choices(let list): return "COMPREPLY=($(compgen -W \"\(list.joined(separator: " "))\" -- \"$cur\"))"
        case .none: return "COMPREPLY=()"
        }
    }

    static func bash() -> String {
        var cases = ""
        for c in commands {
            var valueCases = ""
            for o in c.allOptions where o.value != nil {
                valueCases += "                \(o.name)) \(bashReply(o.completion)); return ;;\n"
            }
            let positional = bashReply(c.positionals)
            // A command with subcommands (`reference add|list|remove`) offers them first.
            let first = c.subcommands.isEmpty ? ""
                : "            if [[ $COMP_CWORD -eq 2 && \"$cur\" != -* ]]; then COMPREPLY=($(compgen -W \"\(c.subcommands.joined(separator: " "))\" -- \"$cur\")); return; fi\n"
            cases += """
                    \(c.name))
                        case "$prev" in
            \(valueCases)            esac
            \(first)            if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "\(words(c).joined(separator: " "))" -- "$cur")); else \(positional); fi
                        ;;

            """
        }
        let names = commands.map { $0.name }.joined(separator: " ")
        return """
        # bash completion for glimt-pure (made by 'glimt-pure completions bash')
        _glimt_pure() {
            local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
            if [[ $COMP_CWORD -eq 1 ]]; then
                COMPREPLY=($(compgen -W "\(names) help --help --version" -- "$cur"))
                return
            fi
            case "${COMP_WORDS[1]}" in
        \(cases)        help) COMPREPLY=($(compgen -W "\(names)" -- "$cur")) ;;
            esac
        }
        complete -o filenames -F _glimt_pure glimt-pure
        """
    }

    static func zsh() -> String {
        func quoted(_ s: String) -> String { s.replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]").replacingOccurrences(of: ":", with: "\\:") }
        func action(_ c: OptionSpec.Completion) -> String {
            switch c {
            case .file: return "_files"
            case .folder: return "_files -/"
            case .choices(let list): return "(\(list.joined(separator: " ")))"
            case .none: return " "
            }
        }
        var functions = ""
        for c in commands {
            let specs = c.allOptions.map { o -> String in
                let names = o.short.map { "'(\($0) \(o.name))'{\($0),\(o.name)}" } ?? "'\(o.name)"
                let open = o.short == nil ? "" : "'"
                let value = o.value.map { ":\(quoted($0)):\(action(o.completion))" } ?? ""
                return "        \(names)\(open)[\(quoted(o.help))]\(value)'"
            }.joined(separator: " \\\n")
            functions += """
            _glimt_pure_\(c.name.replacingOccurrences(of: "-", with: "_"))() {
                _arguments -s \\
            \(specs) \\
            \(c.subcommands.isEmpty ? "" : "        '1:subcommand:(\(c.subcommands.joined(separator: " ")))' \\\n")        '*:argument:\(action(c.positionals))'
            }

            """
        }
        return """
        #compdef glimt-pure
        # zsh completion for glimt-pure (made by 'glimt-pure completions zsh')
        \(functions)_glimt_pure() {
            local -a commands
            commands=(
        \(commands.map { "        '\($0.name):\(quoted($0.summary))'" }.joined(separator: "\n"))
            )
            if (( CURRENT == 2 )); then
                _describe 'command' commands
                return
            fi
            local cmd=${words[2]}
            shift words; (( CURRENT-- ))
            case $cmd in
        \(commands.map { "        \($0.name)) _glimt_pure_\($0.name.replacingOccurrences(of: "-", with: "_")) ;;" }.joined(separator: "\n"))
            esac
        }
        compdef _glimt_pure glimt-pure
        """
    }

    static func fish() -> String {
        func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'" }
        var lines = ["# fish completion for glimt-pure (made by 'glimt-pure completions fish')",
                     "complete -c glimt-pure -f",
                     "complete -c glimt-pure -n __fish_use_subcommand -a help -d 'Show help for a command'"]
        for c in commands {
            lines.append("complete -c glimt-pure -n __fish_use_subcommand -a \(c.name) -d \(quoted(c.summary))")
            let when = "-n '__fish_seen_subcommand_from \(c.name)'"
            for o in c.allOptions {
                var line = "complete -c glimt-pure \(when) -l \(o.name.dropFirst(2))"
                if let short = o.short { line += " -s \(short.dropFirst())" }
                if o.value != nil {
                    switch o.completion {
                    case .file: line += " -r -F"
                    case .folder: line += " -r -a '(__fish_complete_directories)'"
                    case .choices(let list): line += " -x -a \(quoted(list.joined(separator: " ")))"
                    case .none: line += " -x"
                    }
                }
                lines.append(line + " -d \(quoted(o.help))")
            }
            if !c.subcommands.isEmpty {
                let words = c.subcommands.joined(separator: " ")
                lines.append("complete -c glimt-pure -n '__fish_seen_subcommand_from \(c.name); and not __fish_seen_subcommand_from \(words)' -a \(quoted(words))")
            }
            switch c.positionals {
            case .file: lines.append("complete -c glimt-pure \(when) -F")
            case .folder: lines.append("complete -c glimt-pure \(when) -a '(__fish_complete_directories)'")
            case .choices(let list): lines.append("complete -c glimt-pure \(when) -a \(quoted(list.joined(separator: " ")))")
            case .none: break
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// The glimt-pure(1) manual page in roff.
enum Manual {
    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : String($0) }.joined(separator: "\n")
    }

    static func page() -> String {
        var out = [".TH GLIMT\\-PURE 1 \"\" \"glimt-pure \(Glimt.version)\" \"User Commands\"",
                   ".SH NAME", "glimt\\-pure \\- one second of every day, made into a film, from the videos you already took",
                   ".SH SYNOPSIS", ".B glimt\\-pure", "\\fIcommand\\fR [\\fIoptions\\fR]",
                   ".SH DESCRIPTION",
                   escape("glimt-pure finds one second of each day in your videos (the second where your child is in the picture, when you give reference photos) and cuts them into a film. It runs on your machine only: no network code, no account, no upload."),
                   ".SH COMMANDS"]
        for c in commands {
            out.append(".SS \(escape(c.name))")
            out.append(escape(c.summary) + ".")
            for u in c.usage { out += [".PP", ".B glimt\\-pure", escape(u)] }
            for paragraph in c.about.components(separatedBy: "\n\n") {
                out += [".PP", escape(paragraph.replacingOccurrences(of: "\n", with: " "))]
            }
            for o in c.allOptions {
                out += [".TP", "\\fB\(escape((o.short.map { "\($0), " } ?? "") + o.name))\\fR" + (o.value.map { " \\fI\(escape($0))\\fR" } ?? ""),
                        escape(o.fullHelp)]
            }
        }
        out += [".SH EXIT STATUS", escape(ExitStatus.text),
                ".SH FILES", escape("\(LibraryLocation.standard): the library: library.sqlite (scanned videos, their frames and faces, your pins and exclusions, the last scans), references.json and references/ (reference faces), sheets/ (contact sheets)."),
                ".PP", escape("\(ConfigFile.standard): the settings: 'folder /path' lines, the watched folders ('glimt-pure folders'); # starts a comment."),
                ".PP", escape("/usr/lib/systemd/user/glimt-pure-scan.service and .timer (from the Debian package; ~/.config/systemd/user from tools/install.sh): the daily scan of the watched folders, at idle priority: 'systemctl --user enable --now glimt-pure-scan.timer'."),
                ".SH ENVIRONMENT", escape("GLIMT_WEIGHTS_DIR: where the model weights are, instead of beside the binary or PREFIX/share/glimt-pure. XDG_DATA_HOME, else HOME: where the library is by default (absolute paths only; with neither, give --library). XDG_CONFIG_HOME, else HOME: where the settings are. TZ: the zone dates are read in when --timezone is not given."),
                ".PP", escape("\(KernelChoice.environmentKey)=\(Kernels.fastestFirst.map(\.rawValue).joined(separator: "|")): which build of the models' kernels runs. The Debian package holds them all and runs the fastest this CPU can; this forces one, refused in one line when the CPU cannot run it. 'glimt-pure --version' says which runs."),
                ".SH PRIVACY", escape("glimt-pure has no network code; FFmpeg opens local files only.")]
        return out.joined(separator: "\n")
    }
}
