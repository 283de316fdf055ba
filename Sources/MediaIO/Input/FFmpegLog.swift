import CFFmpeg
import Foundation

/// FFmpeg's own log, kept off the terminal: the last error line of each thread is held so an
/// error can say what FFmpeg saw. `GLIMT_FFMPEG_LOG=1` prints FFmpeg's warnings and errors for debugging.
enum FFmpegLog {
    private static let threadKey = "glimt.ffmpeg.lastError"
    private static let toStandardError = ProcessInfo.processInfo.environment["GLIMT_FFMPEG_LOG"] == "1"

    /// Installs the hook once; every Media type calls this before using FFmpeg.
    static let install: Void = {
        av_log_set_callback { context, level, format, arguments in
            guard level <= AV_LOG_WARNING, let format, let arguments else { return }
            var line = [CChar](repeating: 0, count: 512)
            var printPrefix: Int32 = 1
            av_log_format_line2(context, level, format, arguments, &line, Int32(line.count), &printPrefix)
            let text = String(cString: line).trimmingCharacters(in: .whitespacesAndNewlines)
            if FFmpegLog.toStandardError { FileHandle.standardError.write(Data(("ffmpeg: " + text + "\n").utf8)) }
            if level <= AV_LOG_ERROR {
                let dictionary = Thread.current.threadDictionary
                let kept = (dictionary[FFmpegLog.threadKey] as? [String] ?? []).suffix(7)
                dictionary[FFmpegLog.threadKey] = Array(kept) + [stripLogPrefix(text)]
            }
        }
    }()

    /// The last error line FFmpeg logged on this thread since the previous call, if any.
    static func takeLastError() -> String? {
        let dictionary = Thread.current.threadDictionary
        defer { dictionary.removeObject(forKey: threadKey) }
        return (dictionary[threadKey] as? [String])?.last
    }

    /// The last few error lines logged on this thread, oldest first, without forgetting them.
    static func recentErrors() -> [String] {
        Thread.current.threadDictionary[threadKey] as? [String] ?? []
    }

    static func clear() { Thread.current.threadDictionary.removeObject(forKey: threadKey) }
}

/// FFmpeg's text for an error code, e.g. "Invalid data found when processing input".
func ffmpegErrorText(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    av_strerror(code, &buffer, buffer.count)
    return String(cString: buffer)
}

/// One line for an error: FFmpeg's last logged complaint if there is one, else the code's text.
func ffmpegReason(_ code: Int32) -> String {
    oneLine(FFmpegLog.takeLastError() ?? ffmpegErrorText(code))
}

/// "what: reason" for a failed call, unless FFmpeg had refused an oversized picture (while
/// probing or decoding), which is then named with its size.
func ffmpegFailure(_ code: Int32, _ what: String) -> String {
    for line in FFmpegLog.recentErrors().reversed() where line.hasPrefix("Picture size ") {
        let numbers = line.dropFirst("Picture size ".count).prefix { $0.isNumber || $0 == "x" }.split(separator: "x")
        if numbers.count == 2, let width = Int(numbers[0]), let height = Int(numbers[1]), width * height > MediaLimits.maxPixels {
            FFmpegLog.clear()
            return MediaLimits.tooLargeReason(width: width, height: height)
        }
    }
    return "\(what): \(ffmpegReason(code))"
}

/// "[mov,mp4,... @ 0x55d] moov atom not found" -> "moov atom not found".
private func stripLogPrefix(_ line: String) -> String {
    var rest = Substring(line)
    while rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
        rest = rest[rest.index(after: close)...].drop(while: { $0 == " " })
    }
    return String(rest)
}

/// Errors are printed as one line, so FFmpeg text never brings its own newlines.
func oneLine(_ text: String) -> String {
    text.split(whereSeparator: { $0.isNewline }).joined(separator: " ")
}
