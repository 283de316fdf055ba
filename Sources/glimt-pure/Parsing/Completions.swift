import Foundation

/// Shell completion scripts, from the commands' option definitions.
enum Completions {
    static func words(_ c: any Command.Type) -> [String] { c.allOptions.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) } }

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
            let first =
                c.subcommands.isEmpty
                ? ""
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
        func quoted(_ s: String) -> String {
            s.replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]")
                .replacingOccurrences(of: ":", with: "\\:")
        }
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
        var lines = [
            "# fish completion for glimt-pure (made by 'glimt-pure completions fish')",
            "complete -c glimt-pure -f",
            "complete -c glimt-pure -n __fish_use_subcommand -a help -d 'Show help for a command'",
        ]
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
                lines.append(
                    "complete -c glimt-pure -n '__fish_seen_subcommand_from \(c.name); and not __fish_seen_subcommand_from \(words)' -a \(quoted(words))"
                )
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
