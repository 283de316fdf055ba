/// The exit statuses every command uses, as help, the man page and the README give them.
enum ExitStatus {
    static let done: Int32 = 0, failed: Int32 = 1, ambiguousFace: Int32 = 2, usage: Int32 = 64, interrupted: Int32 = 130
    static let text =
        "0 done (film: the film was written, even without some files); 1 failed, or done without some files that could not be used (each named on stderr in one line); 2 a photo has several faces and no --face (or PHOTO:N) said which (the faces are listed); 64 a usage mistake; 130 interrupted (Ctrl-C)"
}
