/// A built-in 5x7 pixel font (digits, capital letters, a little punctuation) for numbering faces
/// on contact sheets and for date captions: no font library, no font files. Lower-case letters
/// are drawn as capitals.
public enum BitmapFont {
    public static let glyphWidth = 5
    public static let glyphHeight = 7

    // Each glyph is 7 rows of 5 columns, "#" for ink.
    private static let glyphs: [Character: [String]] = [
        "0": [" ### ", "#   #", "#  ##", "# # #", "##  #", "#   #", " ### "],
        "1": ["  #  ", " ##  ", "  #  ", "  #  ", "  #  ", "  #  ", " ### "],
        "2": [" ### ", "#   #", "    #", "   # ", "  #  ", " #   ", "#####"],
        "3": ["#####", "   # ", "  #  ", "   # ", "    #", "#   #", " ### "],
        "4": ["   # ", "  ## ", " # # ", "#  # ", "#####", "   # ", "   # "],
        "5": ["#####", "#    ", "#### ", "    #", "    #", "#   #", " ### "],
        "6": ["  ## ", " #   ", "#    ", "#### ", "#   #", "#   #", " ### "],
        "7": ["#####", "    #", "   # ", "  #  ", " #   ", " #   ", " #   "],
        "8": [" ### ", "#   #", "#   #", " ### ", "#   #", "#   #", " ### "],
        "9": [" ### ", "#   #", "#   #", " ####", "    #", "   # ", " ##  "],
        "A": [" ### ", "#   #", "#   #", "#####", "#   #", "#   #", "#   #"],
        "B": ["#### ", "#   #", "#   #", "#### ", "#   #", "#   #", "#### "],
        "C": [" ### ", "#   #", "#    ", "#    ", "#    ", "#   #", " ### "],
        "D": ["###  ", "#  # ", "#   #", "#   #", "#   #", "#  # ", "###  "],
        "E": ["#####", "#    ", "#    ", "#### ", "#    ", "#    ", "#####"],
        "F": ["#####", "#    ", "#    ", "#### ", "#    ", "#    ", "#    "],
        "G": [" ### ", "#   #", "#    ", "# ###", "#   #", "#   #", " ####"],
        "H": ["#   #", "#   #", "#   #", "#####", "#   #", "#   #", "#   #"],
        "I": [" ### ", "  #  ", "  #  ", "  #  ", "  #  ", "  #  ", " ### "],
        "J": ["  ###", "   # ", "   # ", "   # ", "   # ", "#  # ", " ##  "],
        "K": ["#   #", "#  # ", "# #  ", "##   ", "# #  ", "#  # ", "#   #"],
        "L": ["#    ", "#    ", "#    ", "#    ", "#    ", "#    ", "#####"],
        "M": ["#   #", "## ##", "# # #", "# # #", "#   #", "#   #", "#   #"],
        "N": ["#   #", "#   #", "##  #", "# # #", "#  ##", "#   #", "#   #"],
        "O": [" ### ", "#   #", "#   #", "#   #", "#   #", "#   #", " ### "],
        "P": ["#### ", "#   #", "#   #", "#### ", "#    ", "#    ", "#    "],
        "Q": [" ### ", "#   #", "#   #", "#   #", "# # #", "#  # ", " ## #"],
        "R": ["#### ", "#   #", "#   #", "#### ", "# #  ", "#  # ", "#   #"],
        "S": [" ####", "#    ", "#    ", " ### ", "    #", "    #", "#### "],
        "T": ["#####", "  #  ", "  #  ", "  #  ", "  #  ", "  #  ", "  #  "],
        "U": ["#   #", "#   #", "#   #", "#   #", "#   #", "#   #", " ### "],
        "V": ["#   #", "#   #", "#   #", "#   #", "#   #", " # # ", "  #  "],
        "W": ["#   #", "#   #", "#   #", "# # #", "# # #", "# # #", " # # "],
        "X": ["#   #", "#   #", " # # ", "  #  ", " # # ", "#   #", "#   #"],
        "Y": ["#   #", "#   #", " # # ", "  #  ", "  #  ", "  #  ", "  #  "],
        "Z": ["#####", "    #", "   # ", "  #  ", " #   ", "#    ", "#####"],
        " ": ["     ", "     ", "     ", "     ", "     ", "     ", "     "],
        "-": ["     ", "     ", "     ", "#####", "     ", "     ", "     "],
        "_": ["     ", "     ", "     ", "     ", "     ", "     ", "#####"],
        ":": ["     ", "  #  ", "  #  ", "     ", "  #  ", "  #  ", "     "],
        "/": ["    #", "    #", "   # ", "  #  ", " #   ", "#    ", "#    "],
        ".": ["     ", "     ", "     ", "     ", "     ", " ##  ", " ##  "],
        ",": ["     ", "     ", "     ", "     ", " ##  ", "  #  ", " #   "],
        ";": ["     ", " ##  ", " ##  ", "     ", " ##  ", "  #  ", " #   "],
        "#": [" # # ", " # # ", "#####", " # # ", "#####", " # # ", " # # "],
        "(": ["   # ", "  #  ", " #   ", " #   ", " #   ", "  #  ", "   # "],
        ")": [" #   ", "  #  ", "   # ", "   # ", "   # ", "  #  ", " #   "],
        "'": ["  #  ", "  #  ", " #   ", "     ", "     ", "     ", "     "],
        "?": [" ### ", "#   #", "    #", "   # ", "  #  ", "     ", "  #  "],
        "!": ["  #  ", "  #  ", "  #  ", "  #  ", "  #  ", "     ", "  #  "],
        "+": ["     ", "  #  ", "  #  ", "#####", "  #  ", "  #  ", "     "],
    ]

    /// Ink at column `x`, row `y` of the glyph for `c` (unknown characters draw as "?").
    public static func ink(_ c: Character, _ x: Int, _ y: Int) -> Bool {
        let rows = glyphs[Character(c.uppercased())] ?? glyphs["?"]!
        let row = Array(rows[y])
        return row[x] == "#"
    }

    /// Width in pixels of `text` at `scale` (one blank column between glyphs).
    public static func width(_ text: String, scale: Int) -> Int {
        max(0, text.count * (glyphWidth + 1) - 1) * scale
    }

    public static func height(scale: Int) -> Int { glyphHeight * scale }

    /// `text` shortened in the middle (".." where characters were left out) to at most `width`
    /// pixels: a file name keeps its start and its extension.
    public static func fitted(_ text: String, width: Int, scale: Int) -> String {
        let fits = max(0, (width / scale + 1) / (glyphWidth + 1))
        guard text.count > fits else { return text }
        guard fits > 2 else { return String(text.prefix(fits)) }
        let tail = (fits - 2) / 2, head = fits - 2 - tail
        return text.prefix(head) + ".." + text.suffix(tail)
    }

    /// `text` broken into lines of at most `width` pixels at spaces; a word longer than a line
    /// is shortened with `fitted`.
    public static func wrapped(_ text: String, width: Int, scale: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            let joined = line.isEmpty ? String(word) : line + " " + word
            if self.width(joined, scale: scale) <= width {
                line = joined
            } else {
                if !line.isEmpty { lines.append(line) }
                line = fitted(String(word), width: width, scale: scale)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
