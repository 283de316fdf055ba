/* glimt-pure review: review.js, the page. It builds everything inside #app from
   window.GLIMT_REVIEW (data/<year>.js: a plain script, because a file:// page cannot read JSON)
   and records choices through window.GlimtChoices (choices.js). It fetches nothing, ever. */
(function () {
  "use strict";

  var D = window.GLIMT_REVIEW, C = window.GlimtChoices, app = document.getElementById("app");
  if (!app) { return; }
  if (!D || !Array.isArray(D.days) || !C) {
    app.textContent = "The review's data did not load: keep the data and assets folders next to this page.";
    return;
  }
  // The skeleton makes #app a live region; left so, a screen reader would read out every view the
  // page builds. Short messages go to the #announce status region instead.
  app.removeAttribute("aria-live");

  var MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
    "September", "October", "November", "December"];
  var WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
  // The people's colours, palette.css's --person-1, --person-2 and on (the calendar sheet's too),
  // none of them a status colour.
  var PEOPLE_COLOURS = (function () {
    var style = window.getComputedStyle(document.documentElement), list = [], c;
    while ((c = style.getPropertyValue("--person-" + (list.length + 1)).trim())) { list.push(c); }
    return list;
  }());
  var EVERYONE = D.person === "everyone";
  var NAMED = typeof D.person === "string" && D.person !== "" && !EVERYONE;
  var WHO = NAMED ? D.person : EVERYONE ? "anyone" : "the person";
  var IN_FILM = { picked: true, pinned: true, "without-person": true };
  // badge: the calendar's text mark (colour is never the only cue); tag: the day view's; label:
  // the legend's; text: the day view's sentence.
  var STATUS = {
    picked: { badge: "", tag: "PICKED", label: "Picked", text: "In the film: picked automatically." },
    pinned: { badge: "PIN", tag: "PINNED", label: "Pinned by hand", text: "In the film: pinned by hand." },
    "without-person": { badge: "FILL", tag: "WITHOUT " + WHO.toUpperCase(), label: "In the film without " + WHO,
      text: "In the film, but without " + WHO + "." },
    "no-person": { badge: "NONE", tag: "NOT FOUND", label: EVERYONE ? "No one found" : capital(WHO) + " not found",
      text: "Left out: " + (EVERYONE ? "no one" : WHO) + " found in its videos." },
    excluded: { badge: "OUT", tag: "EXCLUDED", label: "Excluded", text: "Left out: excluded by hand." },
    "set-aside": { badge: "ASIDE", tag: "SET ASIDE", label: "Set aside (Live Photos, screen recordings)",
      text: "Left out: its videos are set aside." },
    "too-short": { badge: "SHORT", tag: "TOO SHORT", label: "Too short", text: "Left out: its videos are shorter than a second." },
    "no-video": { badge: "", tag: "NO VIDEO", label: "No video", text: "No video on this day." }
  };
  var CHOICE_BADGE = { pick: "PIN", exclude: "OUT", include: "IN", auto: "AUTO" };
  var KINDS = { camera: "camera video", "live-photo": "Live Photo", "screen-recording": "screen recording",
    "slow-motion": "slow motion", "time-lapse": "time-lapse", photo: "photo", "live-photo-still": "Live Photo's still" };
  var ICONS = { back: "M19 12H5M11 6l-6 6 6 6", prev: "M15 6l-6 6 6 6", next: "M9 6l6 6-6 6",
    save: "M12 4v11M7 10l5 5 5-5M5 20h14" };

  // ---- small helpers ------------------------------------------------------------------------

  function capital(s) { return s.charAt(0).toUpperCase() + s.slice(1); }
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function status(s) { return STATUS[s] || { badge: "?", tag: String(s).toUpperCase(), label: s, text: s }; }

  // h("button", {class: "btn", onclick: f}, [kids]): an element; null/false props and kids are skipped.
  function h(tag, props, kids) {
    var el = document.createElement(tag);
    for (var k in props || {}) {
      var v = props[k];
      if (v === null || v === undefined || v === false) { continue; }
      if (k === "text") { el.textContent = v; }
      else if (k.slice(0, 2) === "on") { el.addEventListener(k.slice(2), v); }
      else { el.setAttribute(k, v === true ? "" : v); }
    }
    [].concat(kids === undefined ? [] : kids).forEach(function (kid) {
      if (kid !== null && kid !== undefined && kid !== false) {
        el.appendChild(typeof kid === "object" ? kid : document.createTextNode(String(kid)));
      }
    });
    return el;
  }

  function icon(name) {
    var s = h("span", { class: "icon", "aria-hidden": "true" });
    // Parsed as HTML, <svg> gets the SVG namespace with no namespace URI written in this file.
    s.innerHTML = '<svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" ' +
      'stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round" focusable="false"><path d="' +
      ICONS[name] + '"/></svg>';
    return s;
  }
  function kbd(key) { return h("kbd", { "aria-hidden": "true", text: key }); }

  function ymd(day) { return { y: +day.slice(0, 4), m: +day.slice(5, 7), d: +day.slice(8, 10) }; }
  function utc(day) { var p = ymd(day); return new Date(Date.UTC(p.y, p.m - 1, p.d)); }
  function weekday(day) { return (utc(day).getUTCDay() + 6) % 7; }   // 0 is Monday
  function addDays(day, n) { return new Date(utc(day).getTime() + n * 86400000).toISOString().slice(0, 10); }
  function daysIn(y, m) { return new Date(Date.UTC(y, m, 0)).getUTCDate(); }
  function shortDate(day) { var p = ymd(day); return p.d + " " + MONTHS[p.m - 1] + " " + p.y; }
  function longDate(day) { return WEEKDAYS[weekday(day)] + " " + shortDate(day); }
  function secs(t) { return (t === null || t === undefined) ? "?" : t.toFixed(1) + " s"; }
  function num2(x) { return typeof x === "number" ? x.toFixed(2) : "\u2014"; }
  function percent(x) { return typeof x === "number" ? Math.round(x * 100) + "%" : "\u2014"; }
  function names(list) {
    return list.length < 2 ? list.join("") : list.slice(0, -1).join(", ") + " and " + list[list.length - 1];
  }
  function inOrder(people) { return (D.people || []).filter(function (p) { return people.indexOf(p) >= 0; }); }
  // The picked candidate; null without a pick, or when the pick names no candidate.
  function pickOf(d) { return d.pick && typeof d.pick.candidate === "number" ? d.candidates[d.pick.candidate] || null : null; }
  function lengthOf(d, c) { return c.length || (d.pick && d.pick.length) || 1; }

  function dayOf(day) {
    return byDay[day] || { day: day, status: "no-video", reason: null, peopleFound: null, pick: null, candidates: [] };
  }

  function storage() { try { return window.localStorage; } catch (e) { return null; } }

  var announcer = h("div", { id: "announce", class: "vh", role: "status", "aria-live": "polite" });
  function announce(message) {
    // The same words twice would not be read again; a trailing space makes them new.
    announcer.textContent = announcer.textContent === message ? message + "\u00a0" : message;
  }

  // ---- state --------------------------------------------------------------------------------

  var byDay = {}, videoDays = [], cells = {};
  D.days.forEach(function (d) {
    d.candidates = d.candidates || [];
    byDay[d.day] = d;
    if (d.candidates.length) { videoDays.push(d.day); }
  });
  var store = storage();
  var choices = C.load(store, D.year, D.person) || C.create(D.person);
  // Keep only what still fits this data (an older site's choices may linger in the browser).
  choices.choices = choices.choices.filter(function (c) {
    var d = byDay[c.day];
    return !!d && d.candidates.length > 0 &&
      (c.action !== "pick" || d.candidates.some(function (k) { return k.video === c.video; }));
  });
  var saved = false, openDay = null, focusDay = null, showCrop = false, scrollBack = 0;
  var baseTitle = document.title;

  // ---- the header ---------------------------------------------------------------------------

  function pageTitle() {
    return NAMED ? D.person + "'s " + D.year : EVERYONE ? "Everyone, " + D.year : String(D.year);
  }

  function mark(person) {
    var i = Math.max(0, (D.people || []).indexOf(person));
    return h("span", { class: "person-mark", "data-person": person,
      style: PEOPLE_COLOURS.length ? "background:" + PEOPLE_COLOURS[i % PEOPLE_COLOURS.length] : null,
      "aria-hidden": "true", text: person.charAt(0).toUpperCase() });
  }

  function buildHeader() {
    var years = (D.years && D.years.length ? D.years : [D.year]).slice().sort();
    var nav = h("nav", { class: "years", "aria-label": "Years" }, h("ul", null, years.map(function (y) {
      return h("li", null, y === D.year ? h("span", { "aria-current": "page", text: String(y) })
        : h("a", { href: y + ".html", text: String(y) }));
    })));
    var inFilm = D.days.filter(function (d) { return IN_FILM[d.status]; }).length;
    var present = {};
    D.days.forEach(function (d) { present[d.status] = true; });
    var items = Object.keys(STATUS).filter(function (s) { return present[s] || s === "picked"; }).map(function (s) {
      return h("li", null, [h("span", { class: "swatch status-" + s, "aria-hidden": "true" },
        status(s).badge ? h("span", { class: "badge", text: status(s).badge }) : null), status(s).label]);
    });
    items.push(h("li", null, [h("span", { class: "swatch changed", "aria-hidden": "true" },
      h("span", { class: "badge-changed", text: "\u2192" })), "Changed by you, until applied"]));
    var legend = h("div", { class: "legend", role: "group", "aria-label": "Legend" }, [
      h("ul", { class: "legend-status" }, items),
      EVERYONE ? h("ul", { class: "legend-people", "aria-label": "People" }, (D.people || []).map(function (p) {
        return h("li", null, [mark(p), p]);
      })) : null
    ]);
    var keys = h("details", { class: "keys" }, [h("summary", { text: "Keyboard" }), h("ul", null, [
      ["Arrows", "move between days; in a day, Left and Right go to the previous or next day with video"],
      ["Enter", "open the day"], ["1 to 9", "use that candidate's best second"], ["x", "exclude the day"],
      ["a", "back to automatic"], ["i", "include an excluded day"], ["c", "show the film's crop"], ["Escape", "back to the year"]
    ].map(function (k) { return h("li", null, [h("kbd", { text: k[0] }), " " + k[1]]); }))]);
    return h("header", { class: "top" }, [
      h("div", { class: "title-row" }, [h("h1", { id: "title", text: pageTitle() }), nav]),
      h("p", { class: "facts", text: inFilm + " of " + D.days.length + " days in the film, " + videoDays.length +
        " with video. Pick a day to see every candidate second." }),
      legend, keys
    ]);
  }

  // ---- the year -----------------------------------------------------------------------------

  function thumbAlt(d, c, start, people) {
    // A pick names whom its own second shows (maybe no one: a second pinned without the person).
    var who = people ? names(people) : (NAMED && c.containsPerson ? D.person : "");
    return (who ? who + " on " : "") + shortDate(d.day) + ", " + c.name +
      (isPhoto(c) ? " (a photo)" : start !== null && start !== undefined ? " at " + secs(start) : "");
  }

  // A photo is held for the day's second (with a slow push toward the face): it has no time.
  function isPhoto(c) { return c.kind === "photo" || c.kind === "live-photo-still"; }

  function buildCell(day) {
    var d = dayOf(day);
    var b = h("button", { type: "button", class: "day status-" + d.status, "data-day": day, "data-status": d.status,
      tabindex: "-1", "aria-disabled": d.candidates.length ? null : "true" });
    b.appendChild(h("span", { class: "num", "aria-hidden": "true", text: String(+day.slice(8)) }));
    // The pick's frame; a day left out shows its first video's, faded, so it can be found again.
    var pc = pickOf(d), c = pc || d.candidates[0];
    if (c && c.thumb) {
      b.appendChild(h("img", { class: pc ? "thumb" : "thumb faded", src: c.thumb, loading: "lazy", decoding: "async",
        alt: pc ? thumbAlt(d, c, d.pick.start, d.pick.people) : thumbAlt(d, c, c.start, null) + " (not in the film)" }));
    }
    if (status(d.status).badge) { b.appendChild(h("span", { class: "badge", "aria-hidden": "true", text: status(d.status).badge })); }
    if (pc && isPhoto(pc)) { b.appendChild(h("span", { class: "photo-mark", "aria-hidden": "true", text: "PHOTO" })); }
    if (EVERYONE && d.peopleFound && d.peopleFound.length) {
      b.appendChild(h("span", { class: "marks", "aria-hidden": "true" }, inOrder(d.peopleFound).map(mark)));
    }
    b.appendChild(h("span", { class: "badge-changed", "aria-hidden": "true" }));
    cells[day] = b;
    updateCell(day);
    return b;
  }

  function updateCell(day) {
    var b = cells[day], d = dayOf(day), ch = C.get(choices, day);
    if (!b) { return; }
    b.classList.toggle("changed", !!ch);
    if (ch) { b.setAttribute("data-choice", ch.action); } else { b.removeAttribute("data-choice"); }
    b.querySelector(".badge-changed").textContent = ch ? "\u2192 " + CHOICE_BADGE[ch.action] : "";
    var label = longDate(day) + ": " + status(d.status).label.toLowerCase();
    if (pickOf(d)) { label += ", " + pickOf(d).name + " at " + secs(d.pick.start); }
    else if (d.candidates.length) { label += ", " + d.candidates.length + (d.candidates.length > 1 ? " videos" : " video"); }
    if (EVERYONE && d.peopleFound && d.peopleFound.length) { label += ", with " + names(inOrder(d.peopleFound)); }
    if (ch) { label += ". Your choice: " + describe(ch, d); }
    b.setAttribute("aria-label", label);
  }

  function buildMonth(m) {
    var key = D.year + "-" + pad(m), n = daysIn(D.year, m), inFilm = 0;
    var grid = h("div", { class: "grid" });
    for (var i = 0; i < weekday(key + "-01"); i++) { grid.appendChild(h("span", { class: "pad", "aria-hidden": "true" })); }
    for (var k = 1; k <= n; k++) {
      var day = key + "-" + pad(k);
      if (byDay[day] && IN_FILM[byDay[day].status]) { inFilm++; }
      grid.appendChild(buildCell(day));
    }
    return h("section", { class: "month", "data-month": key, "aria-labelledby": "m-" + key }, [
      h("div", { class: "month-head" }, [h("h2", { id: "m-" + key, text: MONTHS[m - 1] }),
        h("p", { class: "count", title: "days in the film", text: inFilm + " of " + n + " days" })]),
      h("div", { class: "weekdays", "aria-hidden": "true" }, WEEKDAYS.map(function (w) { return h("span", { text: w.slice(0, 2) }); })),
      grid
    ]);
  }

  // One tab stop for the whole calendar (roving tabindex); the arrows move within it.
  function setFocusDay(day, focus) {
    if (!cells[day]) { return; }
    if (focusDay && cells[focusDay]) { cells[focusDay].tabIndex = -1; }
    focusDay = day;
    cells[day].tabIndex = 0;
    if (focus) { cells[day].focus(); }
  }

  function buildYear() {
    var section = h("section", { id: "year", class: "year", "aria-label": "The days of " + D.year });
    var months = h("div", { class: "months" });
    for (var m = 1; m <= 12; m++) { months.appendChild(buildMonth(m)); }
    section.appendChild(months);
    section.addEventListener("click", function (e) {
      var b = e.target.closest("button.day");
      if (!b) { return; }
      setFocusDay(b.getAttribute("data-day"), false);
      if (b.getAttribute("aria-disabled") === "true") { announce("No video on " + shortDate(b.getAttribute("data-day")) + "."); }
      else { show(b.getAttribute("data-day"), "push"); }
    });
    section.addEventListener("focusin", function (e) {
      if (e.target.hasAttribute("data-day")) { setFocusDay(e.target.getAttribute("data-day"), false); }
    });
    section.addEventListener("keydown", function (e) {
      var day = e.target.getAttribute("data-day"), to = null;
      if (!day || e.ctrlKey || e.metaKey || e.altKey) { return; }
      var step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 }[e.key];
      if (step) { to = addDays(day, step); }
      else if (e.key === "Home") { to = day.slice(0, 8) + "01"; }
      else if (e.key === "End") { to = day.slice(0, 8) + pad(daysIn(+day.slice(0, 4), +day.slice(5, 7))); }
      if (to && cells[to]) { e.preventDefault(); setFocusDay(to, true); }
    });
    return section;
  }

  // ---- choices ------------------------------------------------------------------------------

  function candidateOf(d, video) {
    for (var i = 0; i < d.candidates.length; i++) { if (d.candidates[i].video === video) { return d.candidates[i]; } }
    return null;
  }

  function describe(ch, d) {
    if (ch.action === "pick") {
      var c = candidateOf(d, ch.video);
      return "pin " + (c ? c.name : ch.video) + " from " + secs(ch.at) + (ch.include ? " and include the day again" : "");
    }
    return { exclude: "exclude the day", include: "include the day again", auto: "back to automatic choice" }[ch.action];
  }

  function same(a, b) {
    return !!a && !!b && a.action === b.action &&
      (a.action !== "pick" || (a.video === b.video && a.at === b.at && !!a.include === !!b.include));
  }

  function changed(day, message) {
    saved = false;
    C.store(store, D.year, choices);
    updateCell(day);
    updateBar();
    if (openDay === day) { updateDay(); }
    announce(message + " " + C.summary(choices) + ".");
  }

  function choose(choice) {
    try { C.choose(choices, choice); } catch (e) { announce("Not recorded: " + e.message + "."); return; }
    changed(choice.day, shortDate(choice.day) + ": " + describe(C.get(choices, choice.day), dayOf(choice.day)) + ".");
  }

  function forgetDay(day) {
    if (!C.get(choices, day)) { return; }
    C.forget(choices, day);
    changed(day, shortDate(day) + ": your choice is forgotten.");
  }

  // A button press that repeats the day's choice takes it back; keys only ever set.
  function toggle(choice) {
    if (same(C.get(choices, choice.day), C.validate(choice))) { forgetDay(choice.day); } else { choose(choice); }
  }

  // A second chosen on an excluded day is the day wanted: the pin includes the day again.
  function pickAt(d, c, at) {
    var max = Math.max(0, c.duration - lengthOf(d, c));
    var choice = { day: d.day, action: "pick", video: c.video, at: Math.min(Math.max(0, at), max) };
    if (d.status === "excluded") { choice.include = true; }
    return choice;
  }

  function exclude(d) {
    if (d.status !== "excluded") { choose({ day: d.day, action: "exclude" }); }
    else if (C.get(choices, d.day)) { forgetDay(d.day); }
    else { announce(shortDate(d.day) + " is already excluded."); }
  }

  // Pinned: back to automatic; excluded: included again; otherwise the day's choice is forgotten.
  function backToAuto(d) {
    if (d.status === "pinned") { choose({ day: d.day, action: "auto" }); }
    else if (d.status === "excluded") { choose({ day: d.day, action: "include" }); }
    else if (C.get(choices, d.day)) { forgetDay(d.day); }
    else { announce(shortDate(d.day) + " is already automatic."); }
  }

  // ---- the day ------------------------------------------------------------------------------

  function neighbour(day, dir) {
    var found = null;
    videoDays.forEach(function (v) {
      if (dir < 0 ? v < day : (v > day && found === null)) { found = v; }
    });
    return found;
  }

  function stopVideos() {
    [].forEach.call(dayView.querySelectorAll("video"), function (v) {
      v.pause();
      v.removeAttribute("src");   // let the browser drop the decoder now, not when it gets round to it
      v.load();
    });
  }

  function play(v) { var p = v.play(); if (p && p.catch) { p.catch(function () {}); } }

  function whoText(d, c, isPick) {
    if (EVERYONE) {
      if (isPick && d.pick.people) { return d.pick.people.length ? names(inOrder(d.pick.people)) + " in the film's second" : "no one from the family in the film's second"; }
      return c.containsPerson === true ? "someone from the family" : c.containsPerson === false ? "no one from the family" : "not looked for";
    }
    if (!NAMED) { return "no one looked for"; }
    if (isPick && d.pick.people && d.pick.people.indexOf(D.person) < 0 && c.containsPerson === true) {
      return D.person + " is in it, but not in the film's second";
    }
    return c.containsPerson === true ? D.person + " is in it" : c.containsPerson === false ? D.person + " not found in it" : "not looked for";
  }

  function whyText(d, c, isPick) {
    var why = d.reason ? ": " + d.reason : "";
    if (isPick) {
      var how = d.status === "pinned" ? "Pinned by hand" : d.status === "without-person" ? "Picked, without " + WHO : "Picked";
      // A reason that already says how ("pinned by hand: ...") is not said twice.
      return (d.reason && d.reason.toLowerCase().indexOf(how.toLowerCase()) === 0 ? capital(d.reason) : how + why) + ".";
    }
    if (c.excluded) { return "Not picked: this video is excluded."; }
    if (c.setAside) { return "Not picked: set aside, " + c.setAside + "."; }
    if (c.start === null || c.start === undefined) { return "Not picked: shorter than a second."; }
    if (NAMED && c.containsPerson === false) { return "Not picked: " + D.person + " is not in it."; }
    if (d.status === "excluded") { return "Not picked: the day is excluded."; }
    if (d.pick && typeof d.pick.score === "number" && typeof c.score === "number") {
      return "Not picked: its best second scores " + num2(c.score) + ", the film's " + num2(d.pick.score) + ".";
    }
    return "Not picked" + why + ".";
  }

  // The score's face part: with references, how clear the person's own face is (a stranger's
  // clear face counts nothing); for everyone, the clearest face of the family's; without
  // references, the clearest face of anyone's.
  function faceName(p) {
    if (typeof p.identity !== "number") { return "Clearest face"; }
    return NAMED ? D.person + "'s face" : EVERYONE ? "Family's face" : capital(WHO) + "'s face";
  }
  function faceAbout(p) {
    if (typeof p.identity !== "number") { return "How clear the clearest face is, whoever it is"; }
    return "How clear " + (EVERYONE ? "the clearest face of the family's" : WHO + "'s own face") + " is: anyone else's face counts nothing";
  }

  function place(el, from, width, duration) {
    el.style.left = (100 * from / duration) + "%";
    el.style.width = (100 * width / duration) + "%";
    return el;
  }

  // The shown second as a moment: its flaws (a blink, a word cut, a scene cut) and why a
  // better-scoring second was passed over; nothing when the library did not look (an old scan).
  function momentFact(d, c, isPick) {
    var w = isPick ? d.pick : (c.windows || [])[0];
    if (!w || !w.flaws) { return null; }
    var text = w.flaws.length ? w.flaws.join("; ") : "one shot, eyes open, no word cut";
    return fact("Moment", text + (w.passedOver ? " (passed over " + w.passedOver.replace(/^the /, "") + ")" : ""));
  }

  function buildTimeline(d, c, i, isPick) {
    var dur = c.duration > 0 ? c.duration : 0, len = lengthOf(d, c), max = Math.max(0, dur - len);
    var track = h("div", { class: "track", "data-duration": String(dur), title: "Click to use the second from that time" });
    if (dur > 0) {
      if (isPick) {
        track.appendChild(place(h("span", { class: "mark-pick", title: "The film's second" }), d.pick.start, len, dur));
      }
      (c.windows || []).forEach(function (w, k) {
        track.appendChild(place(h("button", { type: "button", class: "window", "data-start": String(w.start),
          "aria-pressed": "false", "aria-label": "Use window " + (k + 1) + " of " + c.name + ": from " + secs(w.start) + ", score " + num2(w.score),
          title: "From " + secs(w.start) + ", score " + num2(w.score) + (w.flaws && w.flaws.length ? ": " + w.flaws.join("; ") : ""),
          text: String(k + 1),
          onclick: function () { toggle(pickAt(d, c, w.start)); } }), w.start, len, dur));
      });
      track.appendChild(h("span", { class: "mark-choice", hidden: true, title: "Your choice" }));
      var hover = track.appendChild(h("span", { class: "hover-time", "aria-hidden": "true", hidden: true }));
      var timeAt = function (e) {
        var r = track.getBoundingClientRect();
        return Math.round(Math.min(Math.max(0, (e.clientX - r.left) / r.width * dur), max) * 10) / 10;
      };
      track.addEventListener("mousemove", function (e) {
        hover.hidden = false;
        hover.textContent = secs(timeAt(e));
        hover.style.left = (100 * timeAt(e) / dur) + "%";
      });
      track.addEventListener("mouseleave", function () { hover.hidden = true; });
      track.addEventListener("click", function (e) {
        if (!e.target.closest(".window")) { choose(pickAt(d, c, timeAt(e))); }
      });
    }
    // The keyboard's way to a time on the timeline (the track itself is for the mouse).
    var input = h("input", { type: "number", id: "at-" + i, class: "at", min: "0", max: max.toFixed(1), step: "0.1",
      value: c.start !== null && c.start !== undefined ? String(c.start) : "0" });
    // novalidate: a time off the 0.1 s step, or past the end, is clamped rather than refused.
    var form = h("form", { class: "another", novalidate: true, onsubmit: function (e) {
      e.preventDefault();
      var t = parseFloat(input.value);
      if (isFinite(t)) { choose(pickAt(d, c, t)); } else { announce("Type a time in seconds."); }
    } }, [h("label", { for: "at-" + i, text: "Another second from" }), input, " s ",
      h("button", { type: "submit", class: "btn small", text: "Use", "aria-label": "Use the second from this time of " + c.name })]);
    return h("div", { class: "timeline" }, [
      h("div", { class: "scale", "aria-hidden": "true" }, [h("span", { text: "0 s" }), h("span", { text: "whole video" }), h("span", { text: secs(dur) })]),
      track, dur > len ? form : h("p", { class: "note", text: "Too short to choose another second." })
    ]);
  }

  function fact(name, value, fraction, about) {
    return [h("dt", { text: name, title: about }), h("dd", null, [typeof fraction === "number"
      ? h("span", { class: "meter", "aria-hidden": "true" }, h("span", { style: "width:" + Math.round(100 * fraction) + "%" })) : null, value])];
  }

  function buildCandidate(d, c, i) {
    var isPick = !!d.pick && d.pick.candidate === i, id = "cand-" + i, p = c.parts || {};
    var W = c.width || 16, H = c.height || 9, len = lengthOf(d, c);
    var card = h("article", { class: "candidate" + (isPick ? " is-pick" : "") + (isPick && d.status === "pinned" ? " is-pinned" : "") + (c.excluded ? " is-excluded" : ""), id: id,
      "data-candidate": String(i), "data-video": c.video, "aria-labelledby": id + "-name" });
    card.appendChild(h("div", { class: "cand-head" }, [
      h("h3", { id: id + "-name", title: c.video }, [h("span", { class: "cand-n", text: (i + 1) + "." }), " " + c.name]),
      isPick ? h("span", { class: "tag tag-" + (d.status === "pinned" ? "pinned" : "picked"), text: d.status === "pinned" ? "PINNED" : "PICKED" }) : null,
      c.excluded ? h("span", { class: "tag tag-excluded", text: "VIDEO EXCLUDED" }) : null,
      h("span", { class: "tag tag-choice", hidden: true, text: "YOUR CHOICE" })
    ]));
    // The stage has the video's upright shape and the video fills it, so the crop in the
    // video's pixels becomes percentages of the stage: right at any rendered size.
    var stage = h("div", { class: "stage", style: "aspect-ratio:" + W + " / " + H + ";width:min(100%," + Math.round(300 * W / H) + "px)" });
    if (c.preview) {
      var v = h("video", { class: "preview", src: c.preview, "data-preview": c.preview, poster: c.thumb, muted: true, loop: true,
        playsinline: true, preload: "none", controls: true, tabindex: "0",
        "aria-label": "Preview of " + c.name + ", its best second with half a second either side" });
      v.muted = true;   // the property, not the attribute, is what lets play() start without a click
      stage.appendChild(v);
      stage.addEventListener("mouseenter", function () { play(v); });
      stage.addEventListener("mouseleave", function () { v.pause(); });
      card.addEventListener("focusin", function () { play(v); });
      card.addEventListener("focusout", function (e) { if (!card.contains(e.relatedTarget)) { v.pause(); } });
    } else if (c.thumb) {
      stage.appendChild(h("img", { class: "still", src: c.thumb, alt: thumbAlt(d, c, c.start, isPick ? d.pick.people : null) }));
    } else {
      stage.appendChild(h("p", { class: "no-preview", text: "No preview could be made of this video." }));
    }
    var crop = c.crop || (isPick ? d.pick.crop : null);
    if (crop) {
      stage.appendChild(h("div", { class: "crop", "aria-hidden": "true", style: "left:" + (100 * crop.x / W) + "%;top:" + (100 * crop.y / H) +
        "%;width:" + (100 * crop.width / W) + "%;height:" + (100 * crop.height / H) + "%" }));
    } else {
      stage.appendChild(h("div", { class: "crop-none", "aria-hidden": "true", text: "no crop: the whole picture" }));
    }
    card.appendChild(stage);
    var usable = c.start !== null && c.start !== undefined;
    card.appendChild(h("div", { class: "use-row" }, [
      h("button", { type: "button", class: "btn use", "data-candidate": String(i), "aria-pressed": "false", disabled: !usable,
        "aria-keyshortcuts": i < 9 ? String(i + 1) : null, "aria-label": "Use this second: " + c.name + (usable ? " from " + secs(c.start) : ""),
        onclick: function () { toggle(pickAt(d, c, c.start)); } }, ["Use this second", i < 9 ? kbd(String(i + 1)) : null]),
      h("p", { class: "why", text: whyText(d, c, isPick) })
    ]));
    card.appendChild(isPhoto(c) ? h("p", { class: "note", text: "A photo: the film holds it for the second, pushing slowly toward the face." })
      : buildTimeline(d, c, i, isPick));
    var facts = h("dl", { class: "facts-list" });
    [fact("Score", num2(c.score) + (isPick && d.pick.start !== c.start ? " (the film's second: " + num2(d.pick.score) + ")" : ""), c.score),
      fact("Looks", percent(p.aesthetics), p.aesthetics), fact("Sharpness", percent(p.sharpness), p.sharpness),
      fact(faceName(p), percent(p.face), p.face, faceAbout(p)),
      fact("Identity", typeof p.identity === "number" ? percent(p.identity) : "no references", p.identity),
      fact("Who", whoText(d, c, isPick)),
      momentFact(d, c, isPick),
      fact("Best second", isPhoto(c) ? "the photo, held for the second" : usable ? secs(c.start) + " to " + secs(c.start + len) : "none: too short"),
      isPick && d.pick.start !== c.start ? fact("Film's second", secs(d.pick.start) + " to " + secs(d.pick.start + d.pick.length)) : null,
      isPhoto(c) ? fact("Photo", c.width + "\u00d7" + c.height + ", " + KINDS[c.kind]) :
        fact("Video", secs(c.duration) + ", " + c.width + "\u00d7" + c.height + ", " + (KINDS[c.kind] || c.kind || "video")),
      c.setAside ? fact("Set aside", c.setAside) : null,
      fact("Date from", c.dateSource || "unknown"),
      fact("Crop", crop ? Math.round(crop.width) + "\u00d7" + Math.round(crop.height) + " px at " + Math.round(crop.x) + ", " + Math.round(crop.y) : "none")
    ].forEach(function (f) { if (f) { facts.appendChild(f[0]); facts.appendChild(f[1]); } });
    card.appendChild(facts);
    return card;
  }

  function renderDay(d) {
    var prev = neighbour(d.day, -1), next = neighbour(d.day, 1), st = status(d.status);
    dayView.textContent = "";
    dayView.classList.toggle("show-crop", showCrop);
    dayView.appendChild(h("div", { class: "day-nav" }, [
      h("button", { type: "button", id: "back", class: "btn", "aria-keyshortcuts": "Escape", onclick: function () { closeDay("push"); } },
        [icon("back"), "The year"]),
      h("button", { type: "button", id: "prev-day", class: "btn", disabled: !prev, "aria-keyshortcuts": "ArrowLeft",
        "aria-label": prev ? "Previous day with video: " + longDate(prev) : "No earlier day with video",
        onclick: function () { show(prev, "replace"); } }, [icon("prev"), prev ? shortDate(prev) : ""]),
      h("button", { type: "button", id: "next-day", class: "btn", disabled: !next, "aria-keyshortcuts": "ArrowRight",
        "aria-label": next ? "Next day with video: " + longDate(next) : "No later day with video",
        onclick: function () { show(next, "replace"); } }, [next ? shortDate(next) : "", icon("next")])
    ]));
    dayView.appendChild(h("h2", { id: "day-title", tabindex: "-1", "data-day": d.day, text: longDate(d.day) }));
    dayView.appendChild(h("p", { class: "day-status" }, [h("span", { class: "status-tag status-" + d.status, text: st.tag }),
      " " + st.text + (d.reason ? " Why: " + d.reason + "." : "")]));
    if (pickOf(d)) {
      dayView.appendChild(h("p", { class: "day-pick", text: "The film's second: " + pickOf(d).name +
        (isPhoto(pickOf(d)) ? " (a photo, held for the second)" : " from " + secs(d.pick.start) + " to " + secs(d.pick.start + d.pick.length)) +
        ", score " + num2(d.pick.score) + "." }));
    }
    if (EVERYONE && d.peopleFound) {
      dayView.appendChild(h("p", { class: "day-people" }, d.peopleFound.length
        ? ["Found on this day: "].concat(inOrder(d.peopleFound).map(function (p) { return h("span", { class: "person" }, [mark(p), p]); }))
        : "No one from the family found on this day."));
    }
    if (!d.candidates.length) { return; }
    dayView.appendChild(h("div", { class: "day-choice" }, [h("p", { id: "choice-text" }),
      h("button", { type: "button", id: "forget-day", class: "btn small", onclick: function () { forgetDay(d.day); }, text: "Forget my choice" })]));
    var cropBox = h("input", { type: "checkbox", id: "show-crop", "aria-keyshortcuts": "c", checked: showCrop,
      onchange: function () { showCrop = cropBox.checked; dayView.classList.toggle("show-crop", showCrop); } });
    dayView.appendChild(h("div", { class: "day-actions", role: "group", "aria-label": "This day" }, [
      d.status !== "excluded"
        ? h("button", { type: "button", id: "exclude-day", class: "btn", "aria-pressed": "false", "aria-keyshortcuts": "x",
          onclick: function () { toggle({ day: d.day, action: "exclude" }); } }, ["Exclude this day", kbd("x")])
        : h("button", { type: "button", id: "include-day", class: "btn", "aria-pressed": "false", "aria-keyshortcuts": "i",
          onclick: function () { toggle({ day: d.day, action: "include" }); } }, ["Include", kbd("i")]),
      h("button", { type: "button", id: "auto-day", class: "btn", "aria-pressed": "false", "aria-keyshortcuts": "a",
        onclick: function () { backToAuto(d); } }, ["Back to automatic", kbd("a")]),
      h("label", { class: "check", for: "show-crop" }, [cropBox, " Show the film's crop", kbd("c")])
    ]));
    dayView.appendChild(h("p", { class: "timeline-help" }, ["Each timeline is the whole video: ",
      h("span", { class: "key-window", "aria-hidden": "true" }), " its three best seconds (buttons 1 to 3), ",
      h("span", { class: "key-pick", "aria-hidden": "true" }), " the film's second, ",
      h("span", { class: "key-choice", "aria-hidden": "true" }), " your choice. Click anywhere on it to use the second from there."]));
    var list = h("div", { class: "candidates" });
    d.candidates.forEach(function (c, i) { list.appendChild(buildCandidate(d, c, i)); });
    dayView.appendChild(list);
    updateDay();
  }

  // What a choice changes in the open day, without rebuilding it (focus and playback stay).
  function updateDay() {
    var d = dayOf(openDay), ch = C.get(choices, d.day), q = function (s) { return dayView.querySelector(s); };
    if (!q("#choice-text")) { return; }
    q("#choice-text").textContent = ch ? "Your choice: " + describe(ch, d) + "." : "No choice of yours on this day.";
    q("#forget-day").hidden = !ch;
    [["#exclude-day", "exclude"], ["#include-day", "include"], ["#auto-day", "auto"]].forEach(function (b) {
      if (q(b[0])) { q(b[0]).setAttribute("aria-pressed", String(!!ch && ch.action === b[1])); }
    });
    q("#auto-day").hidden = d.status !== "pinned" && !(ch && d.status !== "excluded");
    [].forEach.call(dayView.querySelectorAll(".candidate"), function (card) {
      var c = d.candidates[+card.getAttribute("data-candidate")];
      var mine = !!ch && ch.action === "pick" && ch.video === c.video;
      card.classList.toggle("is-choice", mine);
      card.querySelector(".tag-choice").hidden = !mine;
      card.querySelector(".use").setAttribute("aria-pressed", String(mine && ch.at === c.start));
      [].forEach.call(card.querySelectorAll(".window"), function (w) {
        w.setAttribute("aria-pressed", String(mine && ch.at === +w.getAttribute("data-start")));
      });
      var m = card.querySelector(".mark-choice");
      if (m) {
        m.hidden = !mine;
        if (mine) { place(m, ch.at, lengthOf(d, c), c.duration); m.title = "Your choice: from " + secs(ch.at); }
      }
    });
  }

  // mode: "push" adds a history entry (Back returns), "replace" does not, "none" came from the URL.
  function show(day, mode) {
    if (!day) { return; }
    if (openDay === null) { scrollBack = window.scrollY; }
    stopVideos();
    openDay = day;   // before the hash changes, so the hashchange it causes finds nothing to do
    if (mode !== "none" && location.hash !== "#" + day) {
      if (mode === "replace") { location.replace("#" + day); } else { location.hash = day; }
    }
    renderDay(dayOf(day));
    year.hidden = true;
    dayView.hidden = false;
    app.classList.add("viewing-day");
    document.title = pageTitle() + ", " + shortDate(day) + " \u2014 glimt-pure review";
    window.scrollTo(0, 0);
    document.getElementById("day-title").focus();
  }

  function closeDay(mode) {
    if (openDay === null) { return; }
    var day = openDay;
    openDay = null;
    stopVideos();
    dayView.textContent = "";
    dayView.hidden = true;
    year.hidden = false;
    app.classList.remove("viewing-day");
    document.title = baseTitle;
    if (mode !== "none" && location.hash) { location.hash = ""; }
    window.scrollTo(0, scrollBack);
    if (cells[day]) { setFocusDay(day, false); cells[day].focus({ preventScroll: true }); cells[day].scrollIntoView({ block: "nearest" }); }
  }

  function route() {
    var day = decodeURIComponent(location.hash.slice(1));
    if (C.validDay(day) && +day.slice(0, 4) === D.year) { if (day !== openDay) { show(day, "none"); } }
    else if (openDay !== null) { closeDay("none"); }
  }

  // ---- the bar: summary, save -------------------------------------------------------------

  var summaryEl, saveButton, forgetAllButton;
  function buildBar() {
    summaryEl = h("p", { id: "summary", class: "summary" });
    saveButton = h("button", { type: "button", id: "save", class: "btn primary", onclick: save }, [icon("save"), "Save choices"]);
    forgetAllButton = h("button", { type: "button", id: "forget-all", class: "btn", onclick: forgetAll, text: "Forget all" });
    return h("section", { id: "bar", class: "bar", "aria-label": "Your choices" }, [
      summaryEl,
      h("p", { class: "apply" }, ["Save them, then run in the folder they were saved to: ",
        h("code", { id: "apply-command", text: D.command || "glimt-pure pick --apply glimt-choices.json" })]),
      h("div", { class: "bar-buttons" }, [saveButton, forgetAllButton])
    ]);
  }

  function updateBar() {
    var n = C.count(choices);
    summaryEl.textContent = n ? C.summary(choices) + (saved ? " (saved)" : " (not saved yet)")
      : "No choices yet: open a day to see its candidates and choose.";
    saveButton.disabled = n === 0;
    forgetAllButton.hidden = n === 0;
  }

  function save() {
    var text = C.toJSON(choices, new Date().toISOString());
    // A Blob and an <a download>: the file is made here, nothing is sent or requested.
    var url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    var a = h("a", { href: url, download: "glimt-choices.json", hidden: true });
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
    saved = true;
    updateBar();
    announce("Saved glimt-choices.json: " + C.summary(choices) + ". Apply it with " + (D.command || "glimt-pure pick --apply") + ".");
  }

  function forgetAll() {
    var days = choices.choices.map(function (c) { return c.day; });
    if (!days.length || !window.confirm("Forget all " + C.summary(choices) + "?")) { return; }
    choices = C.create(D.person);
    C.store(store, D.year, choices);
    days.forEach(updateCell);
    updateBar();
    if (openDay !== null) { updateDay(); }
    announce("All choices forgotten.");
  }

  // ---- keys -----------------------------------------------------------------------------

  document.addEventListener("keydown", function (e) {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) { return; }
    var t = e.target, k = e.key;
    if (k === "Escape" && openDay !== null) { e.preventDefault(); closeDay("push"); return; }
    if (t && (t.isContentEditable || /^(TEXTAREA|SELECT)$/.test(t.tagName) || (t.tagName === "INPUT" && t.type !== "checkbox"))) { return; }
    if (openDay === null) {   // the calendar: x and a act on the focused day
      var day = t && t.getAttribute && t.getAttribute("data-day");
      if (day && dayOf(day).candidates.length && (k === "x" || k === "a")) {
        e.preventDefault();
        if (k === "x") { exclude(dayOf(day)); } else { backToAuto(dayOf(day)); }
      }
      return;
    }
    var d = dayOf(openDay), handled = true;
    if (k === "ArrowLeft" || k === "ArrowRight") {
      var to = neighbour(d.day, k === "ArrowLeft" ? -1 : 1);
      if (to) { show(to, "replace"); } else { announce(k === "ArrowLeft" ? "No earlier day with video." : "No later day with video."); }
    } else if (/^[1-9]$/.test(k) && d.candidates.length) {
      var c = d.candidates[+k - 1];
      if (c && c.start !== null && c.start !== undefined) { choose(pickAt(d, c, c.start)); }
      else { announce(c ? c.name + " has no second to use." : "There is no candidate " + k + "."); }
    } else if (k === "x" && d.candidates.length) { exclude(d); }
    else if (k === "a" && d.candidates.length) { backToAuto(d); }
    else if (k === "i" && d.status === "excluded") { choose({ day: d.day, action: "include" }); }
    else if (k === "c" && document.getElementById("show-crop")) { document.getElementById("show-crop").click(); }
    else { handled = false; }
    if (handled) { e.preventDefault(); }
  });

  // ---- start ----------------------------------------------------------------------------

  var year = buildYear();
  var dayView = h("section", { id: "day-view", class: "day-view", hidden: true, "aria-labelledby": "day-title" });
  app.textContent = "";
  [buildHeader(), year, dayView, buildBar(), announcer].forEach(function (el) { app.appendChild(el); });
  setFocusDay(videoDays[0] || D.year + "-01-01", false);
  updateBar();
  window.addEventListener("hashchange", route);
  route();
}());
