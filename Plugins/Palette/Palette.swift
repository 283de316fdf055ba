import PackagePlugin

/// Turns the review page's palette (GlimtPure's Review/Page/palette.css) into Swift when the
/// facade is built: one `UInt32` (0xRRGGBB) for each `--name: #rrggbb;` line, named in camel
/// case (`--sheet-excluded` is `Palette.sheetExcluded`), and `Palette.people`, the
/// `--person-N` colours in order. The sheets draw with these (SheetStyle) and the page loads the
/// file itself, so the colours are written once. A line it cannot read fails the build, naming it.
@main
struct Palette: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let palette = target.directory.appending("Review", "Page", "palette.css")
        let output = context.pluginWorkDirectory.appending("Palette.swift")
        // awk, so that no tool has to be built first; mawk (Debian's) has no {6}.
        let script = #"""
            awk -v file="$1" '
              BEGIN { print "// Written by Plugins/Palette from " file " at build time."; print "enum Palette {"; people = "" }
              /^[ \t]*--/ {
                line = $0
                sub(/^[ \t]*--/, "", line)
                name = line; sub(/:.*/, "", name)
                value = line; sub(/^[^:]*:[ \t]*/, "", value); sub(/;.*/, "", value)
                if (name !~ /^[a-z][a-z0-9-]*$/ || value !~ /^#[0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F]$/) {
                  print file ":" NR ": not a colour of the palette (--name: #rrggbb;): " $0 > "/dev/stderr"; failed = 1; exit 1
                }
                n = split(name, parts, "-"); swift = parts[1]
                for (i = 2; i <= n; i++) swift = swift toupper(substr(parts[i], 1, 1)) substr(parts[i], 2)
                printf "    static let %s: UInt32 = 0x%s\n", swift, tolower(substr(value, 2))
                if (name ~ /^person-[0-9]+$/) people = people (people == "" ? "" : ", ") swift
              }
              END { if (!failed) { print "    static let people: [UInt32] = [" people "]"; print "}" } }
            ' "$1" > "$2.new" && mv "$2.new" "$2" || { rm -f "$2.new"; exit 1; }
            """#
        return [
            .buildCommand(
                displayName: "Reading the palette", executable: Path("/bin/sh"),
                arguments: ["-c", script, "sh", palette.string, output.string],
                inputFiles: [palette], outputFiles: [output])
        ]
    }
}
