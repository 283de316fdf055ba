import Foundation
import GlimtPure

/// The glimt-pure(1) manual page in roff.
enum Manual {
    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : String($0) }.joined(separator: "\n")
    }

    static func page() -> String {
        var out = [
            ".TH GLIMT\\-PURE 1 \"\" \"glimt-pure \(Glimt.version)\" \"User Commands\"",
            ".SH NAME", "glimt\\-pure \\- one second of every day, made into a film, from the videos you already took",
            ".SH SYNOPSIS", ".B glimt\\-pure", "\\fIcommand\\fR [\\fIoptions\\fR]",
            ".SH DESCRIPTION",
            escape(
                "glimt-pure finds one second of each day in your videos (the second where your child is in the picture, when you give reference photos) and cuts them into a film. It runs on your machine only: no network code, no account, no upload."
            ),
            ".SH COMMANDS",
        ]
        for c in commands {
            out.append(".SS \(escape(c.name))")
            out.append(escape(c.summary) + ".")
            for u in c.usage { out += [".PP", ".B glimt\\-pure", escape(u)] }
            for paragraph in c.about.components(separatedBy: "\n\n") {
                out += [".PP", escape(paragraph.replacingOccurrences(of: "\n", with: " "))]
            }
            for o in c.allOptions {
                out += [
                    ".TP", "\\fB\(escape((o.short.map { "\($0), " } ?? "") + o.name))\\fR" + (o.value.map { " \\fI\(escape($0))\\fR" } ?? ""),
                    escape(o.fullHelp),
                ]
            }
        }
        out += [
            ".SH EXIT STATUS", escape(ExitStatus.text),
            ".SH FILES",
            escape(
                "\(LibraryLocation.standard): the library: library.sqlite (scanned videos, their frames and faces, your pins and exclusions, the last scans), references.json and references/ (reference faces), sheets/ (contact sheets)."
            ),
            ".PP",
            escape("\(ConfigFile.standard): the settings: 'folder /path' lines, the watched folders ('glimt-pure folders'); # starts a comment."),
            ".PP",
            escape(
                "/usr/lib/systemd/user/glimt-pure-scan.service and .timer (from the Debian package; ~/.config/systemd/user from tools/install.sh): the daily scan of the watched folders, at idle priority: 'systemctl --user enable --now glimt-pure-scan.timer'."
            ),
            ".SH ENVIRONMENT",
            escape(
                "GLIMT_WEIGHTS_DIR: where the model weights are, instead of beside the binary or PREFIX/share/glimt-pure. XDG_DATA_HOME, else HOME: where the library is by default (absolute paths only; with neither, give --library). XDG_CONFIG_HOME, else HOME: where the settings are. TZ: the zone dates are read in when --timezone is not given."
            ),
            ".PP",
            escape(
                "\(Kernels.environmentKey)=\(Kernels.all.map(\.id).joined(separator: "|")): which build of the models' kernels runs. The Debian package holds them all and runs the fastest this CPU can; this forces one, refused in one line when the CPU cannot run it. 'glimt-pure --version' says which runs."
            ),
            ".SH PRIVACY", escape("glimt-pure has no network code; FFmpeg opens local files only."),
        ]
        return out.joined(separator: "\n")
    }
}
