/// The tool's commands, in the order help lists them.
let commands: [any Command.Type] = [
    FilmCommand.self, ScanCommand.self, FoldersCommand.self, StatusCommand.self, MergeCommand.self, DaysCommand.self, ShowCommand.self,
    CalendarCommand.self,
    ReviewCommand.self, PickCommand.self, ExcludeCommand.self, IncludeCommand.self, DateCommand.self, AnalyzeCommand.self, FacesCommand.self,
    ReferenceCommand.self, PeopleCommand.self, EmbedCommand.self, CompletionsCommand.self, ManualCommand.self,
]

/// The commands that take `option`, for a command that does not.
func commandsTaking(_ option: String) -> [String] {
    commands.filter { $0.allOptions.contains { $0.name == option } }.map { $0.name }
}
