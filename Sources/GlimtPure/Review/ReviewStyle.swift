/// `review`'s assets/review.css: the page's look, carried in the binary like the script. Its
/// status colours are the sheets' (SheetStyle), so a colour means the same on paper and on screen.
enum ReviewStyle {
    static let css = #"""
/* glimt-pure review: review.css. Dark, system fonts only, nothing loaded from anywhere.
   Every text colour is AA (4.5:1 or more) on its background; every status border 3:1 or more,
   and every status also has a text badge and a border style, so colour is never the only cue. */
:root {
  color-scheme: dark;
  --bg: #181818;
  --panel: #222222;
  --panel-2: #2c2c2c;
  --line: #4a4a4a;
  --edge: #737373;   /* a control's outline: 3:1 on the page */
  --text: #ebebeb;
  --dim: #b0b0b0;
  --focus: #ffd24d;
  --accent: #6cb4ff;
  --picked: #2ecc40;
  --pinned: #4096ff;
  --without: #ff8c1a;
  --excluded: #ff5c5c;
  --nopick: #8c8c8c;
  --novideo: #3a3a3a;
  --changed: #f07ad8;
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
html { background: var(--bg); }
body {
  margin: 0;
  background: var(--bg);
  color: var(--text);
  font: 15px/1.45 system-ui, sans-serif;
}
noscript { display: block; padding: 2rem; }
#app { max-width: 1500px; margin: 0 auto; padding: 16px 24px 0; }
h1, h2, h3 { margin: 0; line-height: 1.2; }
a { color: var(--accent); }
kbd {
  display: inline-block;
  min-width: 1.4em;
  padding: 0 4px;
  border: 1px solid var(--line);
  border-bottom-width: 2px;
  border-radius: 4px;
  background: var(--bg);
  color: var(--text);
  font: 12px/1.5 ui-monospace, monospace;
  text-align: center;
}
code { font: 13px ui-monospace, monospace; background: var(--bg); padding: 2px 6px; border-radius: 4px; user-select: all; }
.vh {
  position: absolute !important;
  width: 1px; height: 1px;
  overflow: hidden;
  clip: rect(0 0 0 0);
  clip-path: inset(50%);
  white-space: nowrap;
}
:focus { outline: none; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
/* The day's heading takes focus only so a screen reader starts there; it is not a control. */
h2[tabindex="-1"]:focus, h2[tabindex="-1"]:focus-visible { outline: none; }

/* ---- buttons ---- */
.btn {
  display: inline-flex;
  align-items: center;
  gap: 6px;
  min-height: 34px;
  padding: 4px 12px;
  border: 1px solid var(--edge);
  border-radius: 6px;
  background: var(--panel-2);
  color: var(--text);
  font: inherit;
  cursor: pointer;
}
.btn:hover:not(:disabled) { background: #3a3a3a; border-color: #777; }
.btn:disabled { color: #8a8a8a; cursor: default; }
.btn.small { min-height: 28px; padding: 2px 10px; }
.btn.primary { background: #1f5fbf; border-color: #4d8fe6; color: #fff; font-weight: 600; }
.btn.primary:hover:not(:disabled) { background: #2a6fd6; }
.btn.primary:disabled { background: var(--panel-2); border-color: var(--edge); color: #8a8a8a; }
.btn[aria-pressed="true"] { background: #4a2a44; border-color: var(--changed); }
.btn[aria-pressed="true"]::before { content: "\2713"; color: var(--changed); font-weight: 700; }
.icon { display: inline-flex; }

/* ---- header ---- */
.top { margin-bottom: 16px; }
.title-row { display: flex; flex-wrap: wrap; align-items: baseline; gap: 8px 24px; }
.title-row h1 { font-size: 28px; }
.years ul { display: flex; gap: 4px; margin: 0; padding: 0; list-style: none; }
.years a, .years span { display: inline-block; padding: 2px 10px; border-radius: 6px; }
.years span[aria-current] { background: var(--panel-2); font-weight: 700; }
.facts { margin: 6px 0 10px; color: var(--dim); }
.legend { display: flex; flex-wrap: wrap; gap: 8px 28px; }
.legend ul { display: flex; flex-wrap: wrap; gap: 6px 16px; margin: 0; padding: 0; list-style: none; }
.legend li { display: inline-flex; align-items: center; gap: 6px; font-size: 13px; }
.swatch {
  position: relative;
  display: inline-flex;
  align-items: flex-end;
  min-width: 34px; height: 26px;
  padding: 1px;
  border: 3px solid var(--nopick);
  border-radius: 5px;
  background: var(--panel);
}
.swatch .badge, .swatch .badge-changed { position: static; }
.legend-people .person-mark { position: static; }
.keys { margin-top: 8px; font-size: 13px; color: var(--dim); }
.keys summary { cursor: pointer; width: max-content; }
.keys ul { margin: 6px 0 0; padding-left: 18px; columns: 2 320px; }
.viewing-day .facts, .viewing-day .legend, .viewing-day .keys { display: none; }

/* ---- the year ---- */
.months { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 380px), 1fr)); gap: 22px 28px; }
.month-head { display: flex; justify-content: space-between; align-items: baseline; margin-bottom: 4px; }
.month-head h2 { font-size: 18px; }
.count { margin: 0; color: var(--dim); font-size: 13px; }
.weekdays, .grid { display: grid; grid-template-columns: repeat(7, 1fr); gap: 4px; }
.weekdays span { color: var(--dim); font-size: 12px; text-align: center; }
.day {
  position: relative;
  aspect-ratio: 1;
  min-width: 0;
  padding: 0;
  overflow: hidden;
  border: 3px solid var(--nopick);
  border-radius: 6px;
  background: var(--panel);
  color: var(--text);
  font: inherit;
  cursor: pointer;
}
.day .thumb { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: cover; }
.day .thumb.faded { opacity: 0.45; filter: grayscale(1); }
.day:hover:not([aria-disabled="true"]) { filter: brightness(1.15); }
.day:focus-visible { outline-offset: 1px; z-index: 1; }
.num {
  position: absolute; left: 2px; top: 2px; z-index: 1;
  padding: 0 4px;
  border-radius: 4px;
  background: rgba(0, 0, 0, 0.72);
  color: #fff;
  font-size: 12px; font-weight: 600; line-height: 1.4;
}
.badge, .badge-changed {
  position: absolute; left: 2px; bottom: 2px; z-index: 1;
  padding: 0 3px;
  border-radius: 3px;
  background: var(--nopick);
  color: #000;
  font-size: 10px; font-weight: 700; line-height: 1.4; letter-spacing: 0.02em;
}
/* Above the status badge's row, so the day's number and the status both stay readable. */
.badge-changed { left: auto; right: 2px; bottom: 19px; background: var(--changed); }
.badge-changed:empty { display: none; }
.marks {
  position: absolute; right: 2px; top: 2px; z-index: 1;
  display: flex; flex-wrap: wrap; justify-content: flex-end; gap: 2px; max-width: 55%;
}
.person-mark {
  display: inline-block;
  width: 14px; height: 14px;
  border: 1px solid #000;
  border-radius: 50%;
  color: #000;
  font-size: 9px; font-weight: 700; line-height: 12px; text-align: center;
}

/* Status: border colour and style, and the badge's colour (its text is the non-colour cue). */
.status-picked { border-color: var(--picked); }
.status-pinned { border-color: var(--pinned); }
.status-pinned .badge { background: var(--pinned); }
.status-without-person { border-color: var(--without); }
.status-without-person .badge { background: var(--without); }
.status-excluded { border-color: var(--excluded); }
.status-excluded .badge { background: var(--excluded); }
.status-no-person { border-color: var(--nopick); border-style: dashed; }
.status-set-aside { border-color: var(--nopick); border-style: dotted; }
.status-too-short { border-color: var(--nopick); border-style: double; }
.status-no-video { border-color: var(--novideo); background: transparent; }
.day.status-no-video { cursor: default; }
.day.status-no-video .num { background: none; color: #9a9a9a; font-weight: 400; }
.day.changed { box-shadow: 0 0 0 2px var(--changed); }
.swatch.changed { border-color: var(--changed); }

/* ---- the day ---- */
.day-view { padding-bottom: 16px; }
.day-nav { display: flex; flex-wrap: wrap; gap: 8px; margin-bottom: 12px; }
.day-view h2 { font-size: 24px; margin-bottom: 6px; }
.day-status, .day-pick, .day-people { margin: 4px 0; }
.day-people { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 12px; }
.day-people .person { display: inline-flex; align-items: center; gap: 4px; }
.status-tag, .tag {
  display: inline-block;
  padding: 1px 8px;
  border: 2px solid var(--nopick);
  border-radius: 4px;
  font-size: 12px; font-weight: 700; letter-spacing: 0.04em;
}
.status-tag.status-picked, .tag-picked { background: var(--picked); border-color: var(--picked); color: #000; }
.status-tag.status-pinned, .tag-pinned { background: var(--pinned); border-color: var(--pinned); color: #000; }
.status-tag.status-without-person { background: var(--without); border-color: var(--without); color: #000; }
.status-tag.status-excluded, .tag-excluded { background: var(--excluded); border-color: var(--excluded); color: #000; }
.tag-choice { background: var(--changed); border-color: var(--changed); color: #000; }
.day-choice { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 12px; margin: 10px 0; }
.day-choice p { margin: 0; }
.day-actions { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 10px; margin: 8px 0 16px; }
.check { display: inline-flex; align-items: center; gap: 6px; margin-left: 8px; cursor: pointer; }
.check input { width: 18px; height: 18px; accent-color: var(--focus); }
.candidates { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 420px), 1fr)); gap: 18px; align-items: start; }
.candidate {
  padding: 12px;
  border: 2px solid var(--line);
  border-radius: 10px;
  background: var(--panel);
}
.candidate.is-pick { border-color: var(--picked); }
.candidate.is-pinned { border-color: var(--pinned); }
.candidate.is-choice { border-color: var(--changed); box-shadow: 0 0 0 2px var(--changed); }
.candidate.is-excluded .stage { opacity: 0.6; }
.cand-head { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 10px; margin-bottom: 8px; }
.cand-head h3 { font-size: 16px; overflow-wrap: anywhere; }
.cand-n { color: var(--dim); }
.stage { position: relative; margin: 0 auto; overflow: hidden; border-radius: 6px; background: #000; }
.stage video, .stage .still { display: block; width: 100%; height: 100%; object-fit: contain; }
.no-preview { margin: 0; padding: 24px; color: var(--dim); text-align: center; }
.crop, .crop-none { display: none; position: absolute; pointer-events: none; }
/* Dim what the film leaves out: the crop's own shadow covers the rest of the stage. */
.show-crop .crop { display: block; outline: 2px solid var(--focus); box-shadow: 0 0 0 2000px rgba(0, 0, 0, 0.62); }
.show-crop .crop-none {
  display: block; top: 6px; left: 6px;
  padding: 0 6px; border-radius: 4px;
  background: rgba(0, 0, 0, 0.75); color: var(--text); font-size: 12px;
}
.use-row { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 12px; margin: 10px 0 6px; }
.why { margin: 0; color: var(--dim); font-size: 13px; flex: 1 1 200px; }
.timeline { margin: 8px 0; }
.timeline-help { margin: 0 0 12px; color: var(--dim); font-size: 13px; }
.timeline-help .key-window, .timeline-help .key-pick, .timeline-help .key-choice {
  display: inline-block; width: 18px; height: 8px; margin: 0 2px; border-radius: 2px; vertical-align: middle;
}
.timeline-help .key-window { height: 14px; border: 2px solid var(--accent); background: #1c3350; }
.timeline-help .key-pick { background: var(--picked); }
.timeline-help .key-choice { background: var(--changed); }
.scale { display: flex; justify-content: space-between; color: var(--dim); font-size: 12px; }
.track {
  position: relative;
  height: 42px;
  border-radius: 4px;
  background: linear-gradient(var(--panel-2), var(--panel-2)) 0 28px / 100% 6px no-repeat, var(--bg);
  cursor: crosshair;
}
.track .window {
  position: absolute; top: 2px;
  min-width: 22px; height: 22px;
  padding: 0;
  border: 2px solid var(--accent);
  border-radius: 4px;
  background: #1c3350;
  color: var(--text);
  font: 700 12px/1 system-ui, sans-serif;
  cursor: pointer;
}
.track .window:hover { background: #27507f; }
.track .window[aria-pressed="true"] { border-color: var(--changed); background: #4a2a44; }
.mark-pick, .mark-choice { position: absolute; min-width: 4px; height: 6px; border-radius: 2px; }
.mark-pick { top: 28px; background: var(--picked); }
.mark-choice { top: 35px; background: var(--changed); }
.hover-time {
  position: absolute; top: -22px;
  transform: translateX(-50%);
  padding: 0 4px; border-radius: 3px;
  background: #000; color: #fff; font-size: 11px;
  pointer-events: none;
}
.another { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; margin-top: 6px; font-size: 13px; }
.another input {
  width: 5.5em; min-height: 28px;
  padding: 2px 6px;
  border: 1px solid var(--edge); border-radius: 4px;
  background: var(--bg); color: var(--text); font: inherit;
}
.note { margin: 6px 0 0; color: var(--dim); font-size: 13px; }
.facts-list { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 10px 0 0; font-size: 13px; }
.facts-list dt { color: var(--dim); }
.facts-list dd { margin: 0; display: flex; align-items: center; gap: 8px; overflow-wrap: anywhere; }
.meter { display: inline-block; position: relative; width: 80px; height: 8px; border-radius: 4px; background: var(--panel-2); flex: none; }
.meter > span { position: absolute; left: 0; top: 0; bottom: 0; border-radius: 4px; background: var(--accent); }

/* ---- the choices bar ---- */
section.bar {
  position: sticky; bottom: 0; z-index: 5;
  display: flex; flex-wrap: wrap; align-items: center; gap: 6px 18px;
  margin: 24px -24px 0;
  padding: 10px 24px;
  border-top: 1px solid var(--line);
  background: #101010;
}
.summary { margin: 0; font-weight: 600; }
.apply { margin: 0; color: var(--dim); font-size: 13px; flex: 1 1 300px; }
.apply code { color: var(--text); white-space: nowrap; }
.bar-buttons { display: flex; gap: 8px; margin-left: auto; }

@media (max-width: 600px) {
  #app { padding: 10px 10px 0; }
  section.bar { margin: 16px -10px 0; padding: 8px 10px; }
  .apply code { white-space: normal; overflow-wrap: anywhere; }
}
@media (forced-colors: active) {
  .day, .swatch { border-color: CanvasText; }
  .badge, .badge-changed { border: 1px solid CanvasText; }
}
"""#
}
