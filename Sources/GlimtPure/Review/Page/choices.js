/* glimt-pure review: choices.js (the choices a person makes on the review page, and the
   glimt-choices.json file that `glimt-pure pick --apply` reads). No DOM, no network: in the
   browser it is window.GlimtChoices, under node module.exports. */
(function (root, factory) {
  "use strict";
  var api = factory();
  if (typeof module === "object" && module && module.exports) { module.exports = api; }
  if (root) { root.GlimtChoices = api; }
}(typeof window !== "undefined" ? window : null, function () {
  "use strict";

  var ACTIONS = ["pick", "exclude", "include", "auto"];
  // How each action reads in the summary, in the summary's order.
  var WORDS = { pick: "pinned", exclude: "excluded", include: "included", auto: "back to automatic" };

  function validDay(day) {
    if (typeof day !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(day)) { return false; }
    var y = +day.slice(0, 4), m = +day.slice(5, 7), d = +day.slice(8, 10);
    var date = new Date(Date.UTC(y, m - 1, d));
    // Date.UTC rolls 2024-02-30 over to March: a real day comes back unchanged.
    return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  }

  // A clean copy of `choice` with the file's keys in the file's order; throws on a bad one.
  function validate(choice) {
    if (!choice || typeof choice !== "object") { throw new Error("a choice must be an object"); }
    if (!validDay(choice.day)) { throw new Error("not a day (YYYY-MM-DD): " + String(choice.day)); }
    if (ACTIONS.indexOf(choice.action) < 0) {
      throw new Error("not an action (" + ACTIONS.join(", ") + "): " + String(choice.action));
    }
    var clean = { day: choice.day, action: choice.action };
    if (choice.action === "pick") {
      if (typeof choice.video !== "string" || choice.video === "") { throw new Error("a pick needs its video's path"); }
      if (typeof choice.at !== "number" || !isFinite(choice.at) || choice.at < 0) {
        throw new Error("a pick needs a time `at` of 0 or more seconds");
      }
      clean.video = choice.video;
      clean.at = Math.round(choice.at * 1000) / 1000;   // no 7.499999999 in the file
      // A pin on an excluded day says so: choosing a second there is wanting the day again.
      if (choice.include === true) { clean.include = true; }
      // A second that does not show the person, taken anyway (`pick --force`); else `pick --apply` refuses it.
      if (choice.force === true) { clean.force = true; }
    }
    return clean;
  }

  function create(person) {
    return { person: person === undefined ? null : person, choices: [] };
  }

  function indexOf(state, day) {
    for (var i = 0; i < state.choices.length; i++) { if (state.choices[i].day === day) { return i; } }
    return -1;
  }

  // Changes `state` in place and returns it, so both `s = choose(s, c)` and `choose(s, c)` work.
  function choose(state, choice) {
    var clean = validate(choice);
    var i = indexOf(state, clean.day);
    if (i >= 0) { state.choices.splice(i, 1); }
    state.choices.push(clean);   // the last made wins
    return state;
  }

  function forget(state, day) {
    var i = indexOf(state, day);
    if (i >= 0) { state.choices.splice(i, 1); }
    return state;
  }

  function get(state, day) {
    var i = indexOf(state, day);
    return i >= 0 ? state.choices[i] : null;
  }

  function count(state) { return state.choices.length; }

  // The file, pretty-printed; choices in day order so two saves of the same choices diff cleanly.
  function toJSON(state, made) {
    var sorted = state.choices.slice().sort(function (a, b) { return a.day < b.day ? -1 : a.day > b.day ? 1 : 0; });
    return JSON.stringify({
      glimt: "choices",
      version: 1,
      person: state.person === undefined ? null : state.person,
      made: typeof made === "string" ? made : new Date().toISOString(),
      choices: sorted
    }, null, 2);
  }

  // A state back from a file's text (or its parsed object). Bad choices are dropped, not fatal:
  // one odd entry in localStorage must not cost a person every other choice.
  function fromJSON(text) {
    var file = typeof text === "string" ? JSON.parse(text) : text;
    if (!file || file.glimt !== "choices" || file.version !== 1 || !Array.isArray(file.choices)) {
      throw new Error("not a glimt choices file (version 1)");
    }
    var state = create(file.person === undefined ? null : file.person);
    file.choices.forEach(function (c) {
      try { choose(state, c); } catch (e) { /* dropped */ }
    });
    return state;
  }

  function summary(state) {
    var n = state.choices.length, counts = {};
    state.choices.forEach(function (c) { counts[c.action] = (counts[c.action] || 0) + 1; });
    var parts = ACTIONS.filter(function (a) { return counts[a]; })
      .map(function (a) { return counts[a] + " " + WORDS[a]; });
    return n + (n === 1 ? " choice" : " choices") + (parts.length ? ": " + parts.join(", ") : "");
  }

  function storageKey(year) { return "glimt-choices-" + year; }

  // localStorage may be missing, or throw on any touch (file:// pages, private windows, full disk):
  // every use is guarded, and a failure only means the choices are not kept across reloads.
  function load(storage, year, person) {
    try {
      var text = storage && storage.getItem(storageKey(year));
      if (!text) { return null; }
      var state = fromJSON(text);
      // Another person's review of the same year may share this browser's file:// storage.
      return state.person === (person === undefined ? null : person) ? state : null;
    } catch (e) { return null; }
  }

  function store(storage, year, state) {
    try {
      if (!storage) { return false; }
      if (state.choices.length) { storage.setItem(storageKey(year), toJSON(state)); }
      else { storage.removeItem(storageKey(year)); }
      return true;
    } catch (e) { return false; }
  }

  return {
    ACTIONS: ACTIONS, validDay: validDay, validate: validate, create: create, choose: choose,
    forget: forget, get: get, count: count, toJSON: toJSON, fromJSON: fromJSON, summary: summary,
    storageKey: storageKey, load: load, store: store
  };
}));
