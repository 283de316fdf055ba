import Foundation
import GlimtPure
import TestSupport
import XCTest

@testable import MediaIO

/// The review page in a real browser (Debian's chromium, headless, from file://): every day is
/// there, every preview exists and is H.264, nothing is requested but the page's own files, and
/// the page's own choices script writes a file `pick --apply` takes.
final class ReviewPageTests: CLITestCase {
    /// The default library (XDG_DATA_HOME is the test's folder), so the page's command is a person's.
    private var store: URL { library.appendingPathComponent("glimt") }
    private var site: URL { library.appendingPathComponent("review") }
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard Self.chromium != nil else { throw XCTSkip("no chromium (tools/test.sh installs Debian's)") }
        let videos = library.appendingPathComponent("videos")
        try FileManager.default.createDirectory(at: videos, withIntermediateDirectories: true)
        for clip in ["podium.mp4", "waving_with_biden.mp4", "biden_after_midnight.mp4", "press_room_portrait.mp4", "blue_room.mp4"] {
            try FileManager.default.copyItem(
                at: Self.repositoryRoot.appendingPathComponent("Sample/videos/\(clip)"), to: videos.appendingPathComponent(clip))
        }
        XCTAssertEqual(try glimt("reference", "add", fixture("yunet/obama.png"), "--person", "Barack", "--library", store.path).status, 0)
        XCTAssertEqual(try glimt("scan", videos.path, "--library", store.path, "--timezone", "UTC", "-q").status, 0)
        let review = try glimt("review", "--out", site.path)
        XCTAssertEqual(review.status, 0, review.err)
        // Not on a terminal, progress is whole lines (a log shows how far it got).
        let progress = review.err.split(separator: "\n").filter { $0.hasPrefix("review:") }
        XCTAssertFalse(progress.isEmpty, review.err)
        for line in progress { XCTAssertNotNil(line.wholeMatch(of: #/review: thumbnails and previews \d+/\d+/#), String(line)) }
    }

    /// Chromium as a person's browser would run it, with everything that calls home turned off,
    /// its requests logged; returns the DOM after the page's scripts ran.
    private func browse(_ url: String, netLog: URL? = nil, screenshot: URL? = nil) throws -> String {
        var args = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--disable-default-apps", "--disable-domain-reliability", "--metrics-recording-only",
            "--user-data-dir=" + library.appendingPathComponent("chromium-profile").path, "--virtual-time-budget=4000", "--window-size=1400,1000",
        ]
        if let netLog { args += ["--log-net-log=" + netLog.path, "--net-log-capture-mode=Everything"] }
        args += screenshot.map { ["--screenshot=" + $0.path] } ?? ["--dump-dom"]
        // Where the test runs as root (CI does), in a network namespace of its own: nothing can
        // leave the machine whatever the browser tries; the net log says what anything tried.
        let isolated = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
        let run =
            isolated
            ? try GlimtBinary.run(["--net", Self.chromium!] + args + [url], binary: URL(fileURLWithPath: "/usr/bin/unshare"))
            : try GlimtBinary.run(args + [url], binary: URL(fileURLWithPath: Self.chromium!))
        XCTAssertEqual(run.status, 0, run.err)
        return run.out
    }

    /// The requests a page made in a net log (the browser's own, to its vendor, have no page
    /// behind them: their initiator is "not an origin"). A page from file:// reads its files
    /// without the network, so for glimt's page this must be empty.
    private func pageRequests(_ netLog: URL) throws -> [String] {
        var text = try String(contentsOf: netLog, encoding: .utf8)
        // A log the browser did not get to close.
        if !text.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("}") {
            text = text.trimmingCharacters(in: CharacterSet(charactersIn: ", \n")) + "]}"
        }
        let log = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        let types = (log["constants"] as! [String: Any])["logEventTypes"] as! [String: Int]
        let start = types["URL_REQUEST_START_JOB"]!
        return (log["events"] as! [[String: Any]]).compactMap { e in
            guard e["type"] as? Int == start, let p = e["params"] as? [String: Any], let url = p["url"] as? String else { return nil }
            return (p["initiator"] as? String) == "not an origin" ? nil : url
        }
    }

    private func days() throws -> [[String: Any]] {
        let run = try glimt("days", "--library", store.path, "--json")
        XCTAssertEqual(run.status, 0, run.err)
        return try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as! [[String: Any]]
    }

    func testEveryDayAndPreviewIsThereAndNothingLeavesTheMachine() throws {
        // Not one address of anywhere else in anything the site holds.
        for name in try FileManager.default.subpathsOfDirectory(atPath: site.path) where [".html", ".js", ".css"].contains(where: name.hasSuffix) {
            let text = try String(contentsOf: site.appendingPathComponent(name), encoding: .utf8)
            XCTAssertFalse(text.contains("http://") || text.contains("https://"), "\(name) names a web address")
        }
        let netLog = library.appendingPathComponent("year-netlog.json")
        let year = try browse(site.appendingPathComponent("index.html").absoluteString, netLog: netLog)
        let cells = try NSRegularExpression(pattern: #"data-day="(\d{4}-\d{2}-\d{2})" data-status="([a-z-]+)""#)
        let shown = Dictionary(
            cells.matches(in: year, range: NSRange(year.startIndex..., in: year)).map {
                (String(year[Range($0.range(at: 1), in: year)!]), String(year[Range($0.range(at: 2), in: year)!]))
            }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(shown.count, 366, "every day of 2024")
        let withVideo = try days()
        XCTAssertFalse(withVideo.isEmpty)
        for d in withVideo { XCTAssertEqual(shown[d["day"] as! String], d["status"] as? String, "\(d["day"]!) as days says") }

        var previews = 0, cropsShown = 0
        for d in withVideo {
            let day = d["day"] as! String
            let dom = try browse(site.appendingPathComponent("index.html").absoluteString + "#" + day)
            XCTAssertTrue(dom.contains("id=\"day-view\""), "\(day): the day opens from its address")
            let sources = try NSRegularExpression(pattern: #"data-preview="([^"]+)""#).matches(in: dom, range: NSRange(dom.startIndex..., in: dom))
                .map { String(dom[Range($0.range(at: 1), in: dom)!]) }
            XCTAssertEqual(sources.count, (d["candidates"] as! [Any]).count, "\(day): a preview per candidate")
            for source in sources {
                let info = try VideoReader(path: site.appendingPathComponent(source).path).info
                XCTAssertEqual(info.codecName, "h264", source)
                XCTAssertLessThanOrEqual(max(info.displayWidth, info.displayHeight), ReviewSite.previewSide, source)
                XCTAssertEqual(info.duration, 2, accuracy: 0.6, "\(source): the second and half a second either side, where the video has them")
                XCTAssertFalse(info.hasAudio, "previews are silent")
                previews += 1
            }
            // The crop in whole pixels, as the film cuts it.
            let crops = try NSRegularExpression(pattern: "[0-9.]+\u{d7}[0-9.]+ px at [0-9.]+, [0-9.]+").matches(
                in: dom, range: NSRange(dom.startIndex..., in: dom)
            )
            .map { String(dom[Range($0.range, in: dom)!]) }
            cropsShown += crops.count
            for crop in crops { XCTAssertFalse(crop.contains("."), "\(day): the crop in whole pixels: \(crop)") }
        }
        XCTAssertGreaterThanOrEqual(previews, withVideo.count)
        XCTAssertGreaterThan(cropsShown, 0, "the crops are shown")

        // What the page asked for while it showed the year: nothing over the network.
        XCTAssertEqual(try pageRequests(netLog), [], "the page requested something")
        // And the check sees a page that does: the same page with one picture from elsewhere.
        let leaky = site.appendingPathComponent("leaky.html")
        try (try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8))
            .replacingOccurrences(of: "<main id=\"app\"", with: "<img src=\"http://127.0.0.1:9/tracker.png\" alt=\"\"><main id=\"app\"")
            .write(to: leaky, atomically: true, encoding: .utf8)
        let leakLog = library.appendingPathComponent("leaky-netlog.json")
        _ = try browse(leaky.absoluteString, netLog: leakLog)
        XCTAssertEqual(try pageRequests(leakLog), ["http://127.0.0.1:9/tracker.png"], "a page's own request is seen")
        try FileManager.default.removeItem(at: leaky)
    }

    /// A day with only a photo of the person (the sample's 8 May, dated by EXIF) is in the year
    /// as picked and marked PHOTO; its day plays the photo's pushed second, says the film holds
    /// it, and has no timeline (a photo has no time).
    func testAPhotoDayIsMarkedAndPlaysItsSecond() throws {
        let photos = library.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.repositoryRoot.appendingPathComponent("Sample/photos/IMG_0101.JPG"), to: photos.appendingPathComponent("IMG_0101.JPG"))
        XCTAssertEqual(try glimt("scan", photos.path, "--library", store.path, "--timezone", "UTC", "-q").status, 0)
        let review = try glimt("review", "--out", site.path)
        XCTAssertEqual(review.status, 0, review.err)
        XCTAssertTrue(review.out.contains("5 days with video or photos"), review.out)

        let year = try browse(site.appendingPathComponent("index.html").absoluteString)
        let cell = try XCTUnwrap(
            year.range(of: #"data-day="2024-05-08" data-status="picked"[^>]*>(.(?!data-day=))*PHOTO"#, options: .regularExpression))
        XCTAssertFalse(year[cell].isEmpty)
        XCTAssertEqual(year.components(separatedBy: ">PHOTO<").count - 1, 1, "one photo day")

        let dom = try browse(site.appendingPathComponent("index.html").absoluteString + "#2024-05-08")
        XCTAssertTrue(dom.contains("A photo: the film holds it for the second"), "the day says what the film does with it")
        XCTAssertFalse(dom.contains("class=\"timeline\""), "a photo has no timeline")
        let source = try XCTUnwrap(
            try NSRegularExpression(pattern: #"data-preview="([^"]+)""#).firstMatch(in: dom, range: NSRange(dom.startIndex..., in: dom))
                .map { String(dom[Range($0.range(at: 1), in: dom)!]) })
        let info = try VideoReader(path: site.appendingPathComponent(source).path).info
        XCTAssertEqual(info.codecName, "h264", source)
        XCTAssertEqual(info.duration, 1, accuracy: 0.2, "\(source): the photo's second, as the film shows it")
    }

    /// The reference images of docs/ (GLIMT_UPDATE_SCREENSHOTS=1 writes them there).
    func testScreenshotsOfTheYearAndADay() throws {
        let update = ProcessInfo.processInfo.environment["GLIMT_UPDATE_SCREENSHOTS"] == "1"
        let folder = update ? Self.repositoryRoot.appendingPathComponent("docs") : library!
        for (name, hash) in [("review-year.png", ""), ("review-day.png", "#2024-05-04")] {
            let png = folder.appendingPathComponent(name)
            _ = try browse(site.appendingPathComponent("index.html").absoluteString + hash, screenshot: png)
            let bytes = try Data(contentsOf: png)
            XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "\(name) is a PNG")
            XCTAssertGreaterThan(bytes.count, 20_000, "\(name) shows something")
        }
    }

    /// A choices file made by the page's own script (the real file, Review/Page/choices.js, under
    /// node), applied: exactly those days change.
    func testChoicesMadeByThePageApplyToExactlyThoseDays() throws {
        guard
            let node = ["/usr/bin/node", "/usr/bin/nodejs", "/usr/local/bin/node"].first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else {
            throw XCTSkip("no node (tools/test.sh installs Debian's nodejs)")
        }
        let before = try days()
        let waving = library.appendingPathComponent("videos/waving_with_biden.mp4").path
        let file = library.appendingPathComponent("glimt-choices.json")
        let script = """
            const c = require(\(jsString(Self.repositoryRoot.appendingPathComponent("Sources/GlimtPure/Review/Page/choices.js").path)));
            let s = c.create("Barack");
            s = c.choose(s, {day: "2024-05-04", action: "pick", video: \(jsString(waving)), at: 1.5});
            s = c.choose(s, {day: "2024-05-06", action: "exclude"});
            s = c.choose(s, {day: "2024-05-03", action: "exclude"});
            s = c.forget(s, "2024-05-03");
            require("fs").writeFileSync(\(jsString(file.path)), c.toJSON(s, "2026-12-01T10:00:00Z"));
            console.log(c.summary(s));
            """
        let made = try GlimtBinary.run(["-e", script], binary: URL(fileURLWithPath: node))
        XCTAssertEqual(made.status, 0, made.err)
        let applied = try glimt("pick", "--apply", file.path, "--library", store.path)
        XCTAssertEqual(applied.status, 0, applied.err)
        XCTAssertEqual(applied.out, "applied 2 choices of Barack: 1 pinned, 1 excluded, 0 brought back, 0 back to automatic\n")
        let after = try days()
        for (b, a) in zip(before, after) {
            let day = b["day"] as! String
            switch day {
            case "2024-05-04":
                XCTAssertEqual(a["status"] as? String, "pinned")
                XCTAssertEqual((a["pick"] as? [String: Any])?["start"] as? Double, 1.5)
                XCTAssertEqual((a["pick"] as? [String: Any])?["video"] as? String, waving)
            case "2024-05-06": XCTAssertEqual(a["status"] as? String, "excluded")
            default: XCTAssertEqual(a["status"] as? String, b["status"] as? String, "\(day) is as it was")
            }
        }
        // The page again after the pin: one new second to render, everything else reused.
        let again = try glimt("review", "--out", site.path)
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertTrue(again.out.contains("1 previews and 1 thumbnails made"), again.out)
        let after05 = try browse(site.appendingPathComponent("index.html").absoluteString)
        XCTAssertTrue(after05.contains("data-day=\"2024-05-04\" data-status=\"pinned\""), "the page shows the pin")
    }

    /// On an excluded day, choosing a candidate's second on the page (a click in Chromium) is
    /// wanting the day: the saved file pins the second and says the day is included, in a file
    /// `pick --apply` takes. The day's facts name whose face the score's face part is.
    func testChoosingASecondOnAnExcludedDayIncludesTheDay() throws {
        let day = "2024-05-04"
        XCTAssertEqual(try glimt("exclude", day, "--library", store.path).status, 0)
        let review = try glimt("review", "--out", site.path)
        XCTAssertEqual(review.status, 0, review.err)
        // The page with a probe after its scripts: it opens the day (from the address), clicks the
        // first candidate's "Use this second" and "Save choices", and shows what Save made.
        let probe = site.appendingPathComponent("probe.html")
        let script = """
            <script>
            (function () {
              var saved = document.createElement("pre");
              saved.id = "saved";
              document.body.appendChild(saved);
              URL.createObjectURL = function (blob) { blob.text().then(function (t) { saved.textContent = t; }); return "about:blank"; };
              HTMLAnchorElement.prototype.click = function () {};
              document.querySelector("#day-view .candidate .use").click();
              document.getElementById("save").click();
            }());
            </script>
            </body>
            """
        try (try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)).replacingOccurrences(of: "</body>", with: script)
            .write(to: probe, atomically: true, encoding: .utf8)
        let dom = try browse(probe.absoluteString + "#" + day)
        XCTAssertTrue(dom.contains("data-status=\"excluded\""), "the day is excluded on the page")
        XCTAssertTrue(dom.contains("and include the day again."), "the choice says so")
        let saved = try XCTUnwrap(dom.components(separatedBy: "<pre id=\"saved\">").last?.components(separatedBy: "</pre>").first)
        let text = saved.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(
            of: "&amp;", with: "&")
        let file = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "the saved file: \(saved)")
        let choices = try XCTUnwrap(file["choices"] as? [[String: Any]])
        XCTAssertEqual(choices.count, 1, text)
        let candidate = try XCTUnwrap(try days().first { $0["day"] as? String == day }?["candidates"] as? [[String: Any]]).first
        XCTAssertEqual(choices.first?["day"] as? String, day)
        XCTAssertEqual(choices.first?["action"] as? String, "pick")
        XCTAssertEqual(choices.first?["video"] as? String, candidate?["video"] as? String)
        XCTAssertEqual(choices.first?["include"] as? Bool, true, "a pin on an excluded day includes it: \(text)")
        // pick --apply reads it as a pin.
        let path = library.appendingPathComponent("glimt-choices.json")
        try Data(text.utf8).write(to: path)
        let applied = try glimt("pick", "--apply", path.path, "--library", store.path)
        XCTAssertEqual(applied.status, 0, applied.err)
        XCTAssertTrue(applied.out.hasPrefix("applied 1 choice of Barack: 1 pinned"), applied.out)

        // The score's face part is the person's face (a stranger's clear face counts nothing).
        XCTAssertTrue(dom.contains(">Barack's face</dt>"), "the face part is named for whose face it is")
        XCTAssertFalse(dom.contains("<dt>Face</dt>"))
        // Each second says what spoils it as a moment, or that nothing does.
        XCTAssertTrue(dom.contains(">Moment</dt>"), "the second's moment is shown")
    }

    private func jsString(_ s: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: [s]), as: UTF8.self).dropFirst().dropLast().description
    }
}
