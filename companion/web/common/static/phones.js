// Players' phones (the prison break and the dilemma warm-up): live updates by server-sent
// events, actions by small JSON posts. The page never builds HTML itself: it swaps in parts
// rendered (and escaped) by the server. A page marked data-quiet-when-done clears its status
// line once no action is left (the round moved on: the last "Saved" would only confuse); a
// part that carries a data-stamp (day and phase) clears it when the stamp moves on from the one
// the message was given in. A button with data-confirm acts only on a second tap. A page with
// data-cover-after puts its cover back when left untouched that many seconds. A button with
// data-with sends the values of the ticked boxes of that name along (a list). A new part keeps
// what the hand was doing: the lists unfolded, the button waiting for its second tap.
//
// A "patch" event ({id: text}) changes only those elements' texts in the live part (an empty
// one changes nothing: the page is as of the event's id).
//
// Versions: whatever brings a view (the page's data-version on #live, an event's id, the
// X-View-Version header of a part or of a POST's answer) tells the version of the state it
// shows, the number of the session's log row it was made from. The page keeps the version it
// shows (body.dataset.version) and drops anything older that reaches it late: a re-fetched
// part, a patch, an event, a POST's answer (its message is not said). After a POST, a page shows
// the part the answer carries (the warm-up's do) unless it shows a newer whole part (a patch
// that came first is put back on it); else a page that shows less than the answer's version
// fetches its part, and shows it only if not older. The page names itself to the server (a
// random "tab", on its stream's address and in each POST's X-Tab header), so that the server
// knows which stream shows the part an answer carried, and sends that stream the counts alone.
//
// Countdowns: an element with data-left (seconds left when the server sent it) counts down to
// the moment now + data-left, unless data-paused is "true"; when one reaches zero the document
// gets a "countdown-zero" event (the board chimes). After each part is swapped in the document
// gets a "live-shown" event. While the live part holds an element with data-wake, the screen is
// kept awake (a phone during planning, the board): by the Wake Lock API, else by a muted looping
// video from the player's first tap (see "the screen kept awake").
//
// The laptop not answering: a POST that fails on the network (refused, or no answer within
// data-answer-within seconds, 8 when not told) leaves its tap pending, said beside the buttons
// tapped (#beside, put after their group; a "Saved" line there is hidden meanwhile, so that
// it never stands beside a change not sent). Every few seconds, and as soon as the stream is
// back, the page fetches its part; when the part came and the tap still means what it meant
// (the same stamp, its button there and enabled), the tap is sent again by itself, and its
// answer shown as any tap's; else (the game moved on, or refused it once back) the page says
// plainly that it was not sent. Only the latest tap is kept. A stream lost for a few seconds
// (lostMs) marks the body data-lost: the banner says the laptop is not answering (its
// data-say-lost; data-say-offline when the phone itself is offline), a page's #lost is shown
// (the board's), its countdowns stop until the stream is back, and a phone says beside its
// buttons that a tap now is sent once the laptop answers.
//
// A tap sent whose answer is lost on the way back (the connection cut after the laptop took it)
// cannot be told from one that never got there: the page says beside the buttons that the tap
// could not be confirmed, and as soon as a part shows it held (its button pressed), that it got
// there after all (and the card's "Saved" line, hidden meanwhile, shows what the game holds).
// What an answered tap did (its answer's sentence, or the refusal) is said beside its buttons
// too, not only in the status line above the first card, off-screen once the player scrolled
// to the buttons; it goes when the stamp moves on, and is not said where the card's own
// "Saved" line already stands beside them.
//
// Words: the page gives the script its sentences in its own language, as data-say-sending,
// data-say-failed, data-say-pending, data-say-pending-offline, data-say-lost-near,
// data-say-moved-on, data-say-refused (its %(reason)s is the server's sentence),
// data-say-unconfirmed and data-say-confirmed on the body
// (English when a page has none).
//
// The game master's phone is such a page too: its body's data-send-version sends the version
// it shows with each tap, and a button's data-ask (and data-ask-title) is the console's
// question, said above it while it waits for the second tap its data-confirm asks for.
(function () {
  "use strict";
  var body = document.body;
  var live = document.getElementById("live");
  var statusLine = document.getElementById("status");
  var offline = document.getElementById("offline");
  var cover = document.getElementById("cover");
  var page = document.getElementById("page");
  var hide = document.getElementById("hide");
  var partUrl = body.dataset.part;
  var eventsUrl = body.dataset.events;
  var apiUrl = body.dataset.api;
  var source = null;
  var saidAt = null;  // the stamp the status line's message belongs to
  var stampNext = false;  // the next part shown is the one the message belongs to
  var version = versionOf(live && live.dataset.version);  // what the page shows (-1: unknown)
  var saidVersion = -1;  // the version of the answer whose message the status line says
  var viewVersion = version;  // the version of the last whole part shown (patches aside)
  var shownHtml = null;  // that part's text, as it came (null: the page's own)
  var patched = null;  // the last patch applied: {v: its version, texts: its texts}
  if (version >= 0) body.dataset.version = String(version);
  // This page's own name for its stream and its posts: a server whose answer to a post carries
  // the part it made knows this page's stream shows it, and sends it the rest (a count) alone.
  var tab = Math.random().toString(36).slice(2, 12) || "t";
  if (eventsUrl) eventsUrl += (eventsUrl.indexOf("?") < 0 ? "?" : "&") + "tab=" + tab;

  // A version as sent (a header, an event id, an attribute); -1 when none is told.
  function versionOf(text) {
    var n = text === null || text === undefined || text === "" ? NaN : Number(text);
    return n >= 0 && Math.floor(n) === n ? n : -1;
  }

  // Whether something of version v may be shown (nothing older than what the page shows); if
  // so, the page shows v from now on. Equal is harmless: the same state, made again.
  function fresh(v) {
    if (v < 0) return true;  // told no version: taken as it comes
    if (v < version) return false;
    version = v;
    body.dataset.version = String(v);  // the session's row this page shows (tests read it)
    return true;
  }

  function stamp() {
    var marked = live && live.querySelector("[data-stamp]");
    return marked ? marked.dataset.stamp : null;
  }

  // ---- countdowns ----
  var clocks = [];  // {el, deadline (ms, this page's clock), zero (told already)}
  var ticker = null;
  var frozen = false;  // the stream is lost: the clocks stand still until it is back

  function twoDigits(n) { return (n < 10 ? "0" : "") + n; }

  function clockText(seconds) {
    var whole = Math.max(0, Math.ceil(seconds));
    return Math.floor(whole / 60) + ":" + twoDigits(whole % 60);
  }

  function tick() {
    var now = Date.now();
    clocks.forEach(function (c) {
      var left = (c.deadline - now) / 1000;
      var text = clockText(left);
      if (c.el.textContent !== text) c.el.textContent = text;
      if (left <= 0 && !c.zero) {
        c.zero = true;
        c.el.classList.add("zero");
        document.dispatchEvent(new CustomEvent("countdown-zero", { detail: c.el }));
      }
    });
  }

  function startClocks() {
    var now = Date.now();
    clocks = [];
    if (live) {
      live.querySelectorAll("[data-left]").forEach(function (el) {
        var left = parseFloat(el.dataset.left);
        if (!(left >= 0) || el.dataset.paused === "true") return;
        // a clock already at zero when it arrives has been told about by whoever saw it run
        clocks.push({ el: el, deadline: now + left * 1000, zero: left <= 0 });
      });
    }
    if (ticker) { clearInterval(ticker); ticker = null; }
    if (clocks.length && !frozen) { tick(); ticker = setInterval(tick, 250); }
  }

  // While the game's laptop is lost the page cannot tell whether a clock was paused, given
  // more time or ended: it stops counting (the time the part was sent stays its deadline, so
  // a clock thawed shows the time left then, until the part fetched again corrects it).
  function freezeClocks(on) {
    frozen = on;
    if (on && ticker) { clearInterval(ticker); ticker = null; }
    if (!on && clocks.length && !ticker) { tick(); ticker = setInterval(tick, 250); }
  }

  // ---- the screen kept awake ----
  // The Wake Lock API where the browser grants it (a secure context: not a venue's plain
  // http://192.168.x.x); else a muted, inline, looping video of a black square, which phones
  // honour anywhere, started by the player's first tap (browsers start playing only then)
  // and stopped once nothing asks to stay awake. When neither works the page says the
  // screen may go dark (data-say-asleep on the body).
  var wakeLock = null;  // null, "asking", "refused" or the lock
  var video = null;
  var videoFailed = false;  // none of its sources could be played here
  var asleepNote = null;

  function wantAwake() {
    return !!(live && live.querySelector("[data-wake]")) && document.visibilityState === "visible";
  }

  function locked() { return !!wakeLock && wakeLock !== "asking" && wakeLock !== "refused"; }

  function mayGoDark(on) {
    if (!on) { if (asleepNote) asleepNote.hidden = true; return; }
    if (!asleepNote) {
      asleepNote = document.createElement("p");
      asleepNote.id = "asleep";
      asleepNote.className = "asleep";
      asleepNote.textContent = body.dataset.sayAsleep ||
        "The screen may go dark on this phone: tap it now and then to keep it on.";
      if (live && live.parentNode) live.parentNode.insertBefore(asleepNote, live.nextSibling);
    }
    asleepNote.hidden = false;
  }

  function makeVideo() {
    var v = document.createElement("video");
    v.id = "awake";
    v.muted = true;
    v.loop = true;
    v.playsInline = true;
    ["muted", "playsinline", "loop"].forEach(function (a) { v.setAttribute(a, ""); });
    v.setAttribute("aria-hidden", "true");
    v.setAttribute("preload", "auto");
    v.style.cssText = "position:fixed;right:0;bottom:0;width:2px;height:2px;opacity:0.01;" +
      "pointer-events:none;z-index:-1";
    var last = null;
    [["/static/wake.webm", "video/webm"], ["/static/wake.mp4", "video/mp4"]].forEach(function (f) {
      last = document.createElement("source");
      last.src = f[0];
      last.type = f[1];
      v.appendChild(last);
    });
    // every source failed (the last one's error): this phone plays neither; play() may never
    // settle then, so the page says it here
    last.addEventListener("error", function () {
      videoFailed = true;
      v.pause();
      if (wantAwake() && !locked()) mayGoDark(true);
    });
    v.addEventListener("playing", function () { mayGoDark(false); });
    body.appendChild(v);
    return v;
  }

  // Called on a tap (a user gesture lets a video start) and after each part shown.
  function playVideo(tapped) {
    if (!wantAwake() || locked()) { stopVideo(); return; }
    if (!tapped && !(video && !video.paused)) return;  // it waits for the player's tap
    if (!video) video = makeVideo();
    if (videoFailed) { mayGoDark(true); return; }  // no source it can play
    if (!video.paused) return;
    var started = video.play();
    if (started && started.then) {
      started.then(function () { mayGoDark(false); },
        function () { if (!locked()) mayGoDark(true); });
    }
  }

  function stopVideo() {
    if (video && !video.paused) video.pause();
    if (!wantAwake() || locked()) mayGoDark(false);
  }

  function keepAwake() {
    if (wantAwake()) {
      if (!("wakeLock" in navigator) || wakeLock === "refused") { playVideo(false); return; }
      if (wakeLock) return;
      wakeLock = "asking";
      navigator.wakeLock.request("screen").then(function (lock) {
        if (!wantAwake()) { lock.release(); wakeLock = null; return; }
        wakeLock = lock;
        stopVideo();
        lock.addEventListener("release", function () { if (wakeLock === lock) wakeLock = null; });
      }).catch(function () { wakeLock = "refused"; /* not allowed here: the video's turn */ });
    } else {
      stopVideo();
      if (locked()) {
        var lock = wakeLock;
        wakeLock = null;
        lock.release().catch(function () {});
      }
    }
  }

  ["pointerdown", "click", "touchend", "keydown"].forEach(function (name) {
    window.addEventListener(name, function () { keepAwake(); playVideo(true); }, { passive: true });
  });

  function shown() {
    startClocks();
    keepAwake();
    document.dispatchEvent(new CustomEvent("live-shown"));
  }

  // carried: the part an answer to this page's own post carried, shown unless the page shows
  // a newer whole part (a count's patch that came before the answer does not stop it: its
  // texts are put back on the part, which is older than they are)
  function show(html, v, carried) {
    if (typeof html !== "string" || !live) return;
    if (v === undefined) v = -1;
    // The very part it shows, again (a part fetched after a post, and the stream's, of the
    // same version): kept as it is, so that a tap landing on it meanwhile is not lost.
    if (v >= 0 && v === viewVersion && v === version && html === shownHtml) {
      if (stampNext) { saidAt = stamp(); stampNext = false; }
      return;
    }
    if (carried) {
      if (v < viewVersion) return;
      if (v > version) fresh(v);
    } else if (!fresh(v)) return;  // older than the page: it came late
    var kept = ticked(), unfolded = opened(), waiting = armedTap();
    live.innerHTML = html;
    shownHtml = html;
    retick(kept);
    reopen(unfolded);
    rearm(waiting);
    if (v >= 0) viewVersion = v;
    if (patched && patched.v > v) setTexts(patched.texts);
    shown();
    if (body.dataset.quietWhenDone && !live.querySelector("button[data-action]")) say("");
    var now = stamp();
    if (stampNext) { saidAt = now; stampNext = false; }
    else if (saidAt !== null && now !== saidAt) say("");
    placeNote();
  }

  // Boxes with data-keep stay ticked when a new part comes (a clock paused, a second added):
  // known by their data-keep and value, so a box for another interview starts unticked.
  function keyOf(box) { return box.dataset.keep + "\u0000" + box.name + "\u0000" + box.value; }

  function ticked() {
    var keys = {};
    live.querySelectorAll("input[type=checkbox][data-keep]:checked").forEach(function (box) {
      keys[keyOf(box)] = true;
    });
    return keys;
  }

  function retick(keys) {
    live.querySelectorAll("input[type=checkbox][data-keep]").forEach(function (box) {
      if (keys[keyOf(box)]) box.checked = true;
    });
  }

  // A part that comes while the game master has a list unfolded (details) or a button waiting
  // for its second tap keeps them so (a choice coming in must not close the list under a thumb
  // nor take back the question asked): the same list (by its id, else its summary's words) is
  // unfolded again, the same button (its action and value) armed again with its question as
  // the new part says it; a button the part no longer has is not.
  function keyOfList(d) {
    var summary = d.querySelector("summary");
    return d.id || (summary ? summary.textContent : "");
  }

  function opened() {
    var keys = {};
    live.querySelectorAll("details[open]").forEach(function (d) { keys[keyOfList(d)] = true; });
    return keys;
  }

  function reopen(keys) {
    live.querySelectorAll("details").forEach(function (d) { if (keys[keyOfList(d)]) d.open = true; });
  }

  function armedTap() {
    if (!armed) return null;
    return { action: armed.dataset.action, field: armed.dataset.field, value: armed.dataset.value };
  }

  function rearm(tap) {
    if (!tap) return;
    var again = buttonFor(tap);
    if (again && !again.disabled && again.dataset.confirm) arm(again); else disarm();
  }

  function say(text, bad) {
    if (!statusLine) return;
    if (!text) saidAt = null;
    statusLine.textContent = text || "";
    statusLine.className = "status" + (bad ? " bad" : text ? " good" : "");
  }

  // A request that gives up when no answer came within data-answer-within seconds (a laptop
  // asleep answers nothing, and a browser waits minutes before it says so).
  function within(url, options) {
    var seconds = parseFloat(body.dataset.answerWithin);
    var ms = (seconds > 0 ? seconds : 8) * 1000;
    var control = window.AbortController ? new AbortController() : null;
    if (control) options.signal = control.signal;
    return new Promise(function (resolve, reject) {
      var timer = setTimeout(function () {
        if (control) control.abort();
        reject(new Error("no answer"));
      }, ms);
      fetch(url, options).then(function (r) { clearTimeout(timer); resolve(r); },
        function (e) { clearTimeout(timer); reject(e); });
    });
  }

  // The part again; true once the server answered with it (shown unless older than the page).
  function refresh() {
    if (!partUrl) return Promise.resolve(false);
    return within(partUrl, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) {
        if (r.status === 404) { window.location.reload(); return false; }
        if (!r.ok) return false;
        var v = versionOf(r.headers.get("X-View-Version"));
        return r.text().then(function (html) { show(html, v); return true; });
      })
      .catch(function () { return false; /* offline: the event stream will catch up */ });
  }

  // ---- the stream, and a watchdog on it ----
  // The banner (#offline) shows whenever the stream is not known to be open: an error, the
  // browser's "offline" event, or a stream silent for two heartbeats (a Wi-Fi that died
  // without closing the connection), which is then reopened. A stream the browser gave up on
  // (closed after a failed reconnection) is reopened too, every few seconds. Lost for longer
  // than lostMs, the page says the game's laptop is not answering (see the top).
  var beatMs = 15000;  // how often the server's "beat" comes (each beat tells it)
  var heardAt = Date.now();  // the last time the stream said anything
  var openedAt = 0;  // the last time a stream was opened here
  var lostMs = 4000;
  var lostSince = 0;  // since when the stream is not known to be open (0: it is)
  var longLost = false;  // lost for longer than lostMs
  var lostBox = document.getElementById("lost");
  var bannerWords = offline ? offline.textContent : "";

  function banner(on) {
    if (on && !lostSince) lostSince = Date.now();
    if (!on) { lostSince = 0; gone(false); }
    if (offline) {
      offline.hidden = !on || (longLost && !!lostBox);  // the board's #lost says it then
      var words = bannerWords;
      if (on && navigator.onLine === false && offline.dataset.sayOffline) {
        words = offline.dataset.sayOffline;
      } else if (on && longLost && offline.dataset.sayLost) words = offline.dataset.sayLost;
      if (offline.textContent !== words) offline.textContent = words;
    }
    if (on) delete body.dataset.live; else body.dataset.live = "1";
  }

  // The laptop lost for long (on), or back (off).
  function gone(on) {
    if (on === longLost) return;
    longLost = on;
    if (on) body.dataset.lost = "1"; else delete body.dataset.lost;
    if (lostBox) lostBox.hidden = !on;
    freezeClocks(on);
    if (on && (!note || note.kind === "done") && apiUrl) setNote({ kind: "lost", tap: null });
    if (!on && note && note.kind === "lost") setNote(null);
    if (!on) refresh();  // the clocks and counts as the game holds them now
  }

  function heard() {
    heardAt = Date.now();
    banner(false);
  }

  function backInTouch() {
    heard();
    if (pending) probe();
  }

  function setTexts(texts) {
    Object.keys(texts).forEach(function (id) {
      var el = document.getElementById(id);
      if (el && live && live.contains(el) && el.textContent !== texts[id]) el.textContent = texts[id];
    });
  }

  function connect() {
    if (!window.EventSource || !eventsUrl) return;
    if (source) source.close();
    openedAt = heardAt = Date.now();
    source = new EventSource(eventsUrl);
    source.addEventListener("view", function (e) {
      backInTouch();
      var html;
      try { html = JSON.parse(e.data).html; } catch (err) { refresh(); return; }
      show(html, versionOf(e.lastEventId));
    });
    // A small change (a count) comes as texts by element id, in place of the whole part.
    source.addEventListener("patch", function (e) {
      backInTouch();
      var texts;
      try { texts = JSON.parse(e.data); } catch (err) { return; }
      var v = versionOf(e.lastEventId);
      if (!fresh(v)) return;  // older than the page: the page knows more
      setTexts(texts);
      patched = { v: v, texts: texts };
    });
    source.addEventListener("beat", function (e) {
      var seconds = parseFloat(e.data);
      if (seconds > 0) beatMs = seconds * 1000;
      heard();
    });
    source.addEventListener("gone", function () {
      source.close();
      window.location.reload();
    });
    source.onopen = backInTouch;
    source.onerror = function () { banner(true); };
  }

  function watch() {
    var now = Date.now();
    if (lostSince && !longLost && now - lostSince > lostMs) { gone(true); banner(true); }
    if (!source) return;
    if (source.readyState === 2) {  // closed for good by the browser: try again ourselves
      banner(true);
      // the part too: a page whose link no longer opens anything (a seat reissued, the game
      // master's phone given a new link while its stream was not open) shows why, not stale
      if (now - openedAt > 3000) { refresh(); connect(); }
    } else if (now - heardAt > 2 * beatMs + 1000) {  // two beats missed: the stream is dead
      banner(true);
      connect();
    }
  }

  window.addEventListener("offline", function () { banner(true); placeNote(); });
  // Back online: a stream that looks open may be dead; a fresh one sends the whole view when
  // the page is behind the game, and says the page is in touch again.
  window.addEventListener("online", function () {
    if (source) connect();
    placeNote();  // the note no longer blames this phone's Wi-Fi
    if (pending) probe();
  });

  // ---- what a tap became, said beside its buttons ----
  // note: {kind: "pending" (not sent yet, kept to be sent; unconfirmed: sent, its answer lost),
  // "lost" (no tap: the laptop is not answering), "bad" (not sent, given up, or refused),
  // "done" (what the tap did), tap (null for "lost"), text, stamp (when said)}.
  var note = null;
  var beside = null;  // the element that says it, after the buttons' group
  var hiddenSaved = [];  // the "Saved" lines hidden while a tap is pending
  var noteSaid = false;  // no buttons to put it beside: the status line says it
  var pending = null;  // the tap kept to be sent again
  var lastTap = null;  // the latest tap: only its fate is told
  var probing = false;
  var retryTimer = null;

  function words(name, english) { return body.dataset[name] || english; }

  function sameButton(b, tap) {
    return b.dataset.action === tap.action && b.dataset.field === tap.field &&
      b.dataset.value === tap.value;
  }

  function buttonFor(tap) {
    if (!live) return null;
    var all = live.querySelectorAll("button[data-action]");
    for (var i = 0; i < all.length; i++) if (sameButton(all[i], tap)) return all[i];
    return null;
  }

  function setNote(next) {
    note = next;
    if (note) note.stamp = stamp();
    placeNote();
  }

  function noteText() {
    if (note.text) return note.text;
    if (note.unconfirmed) {
      return words("sayUnconfirmed", "Not confirmed: the game's laptop did not answer. If " +
        "your tap got there, this page shows it as soon as the laptop answers; if not, it is " +
        "sent again by itself.");
    }
    if (note.kind === "lost") {
      return words("sayLostNear",
        "The game's laptop is not answering. A tap now is sent by itself as soon as it answers.");
    }
    if (navigator.onLine === false) {
      return words("sayPendingOffline", "Not sent yet: this phone is offline (check its " +
        "Wi-Fi). Your tap is sent by itself as soon as the game's laptop answers.");
    }
    return words("sayPending", "Not sent yet: the game's laptop is not answering. " +
      "Your tap is sent by itself as soon as it answers.");
  }

  // Puts the note beside its buttons (again, after each part shown), or in the status line
  // when they are gone; a given-up note goes once the stamp moves on from the one it was
  // said in.
  function placeNote() {
    hiddenSaved.forEach(function (el) { el.hidden = false; });
    hiddenSaved = [];
    if (live) {
      live.querySelectorAll("button.pending").forEach(function (b) {
        b.classList.remove("pending");
      });
    }
    if (note && (note.kind === "bad" || note.kind === "done") && stamp() !== note.stamp) {
      note = null;
    }
    var button = null;
    if (note && live) button = note.tap ? buttonFor(note.tap) : live.querySelector("button[data-action]");
    var group = button ? button.closest(".choices, .targets") || button : null;
    // what a tap did, when the card's "Saved" line says it there already (but not that a tap
    // whose answer was lost got there after all)
    if (group && note.kind === "done" && !note.late && savedBeside(group)) group = null;
    if (!note || !group) {
      if (beside && beside.parentNode) beside.parentNode.removeChild(beside);
      if (noteSaid) { noteSaid = false; say(""); }
      if (note && note.kind !== "lost" && note.kind !== "done") {
        say(noteText(), true);
        noteSaid = true;
      }
      return;
    }
    if (noteSaid) { noteSaid = false; say(""); }
    if (!beside) {
      beside = document.createElement("p");
      beside.id = "beside";
      beside.setAttribute("role", "status");
      beside.setAttribute("aria-live", "polite");
    }
    var text = noteText();
    if (beside.textContent !== text) beside.textContent = text;
    beside.className = "beside " + note.kind + (note.unconfirmed ? " unconfirmed" : "");
    if (group.nextSibling !== beside) group.parentNode.insertBefore(beside, group.nextSibling);
    if (note.kind === "pending") {
      button.classList.add("pending");
      Array.prototype.forEach.call(group.parentNode.children, function (el) {
        if (el.classList.contains("saved") && !el.hidden) { el.hidden = true; hiddenSaved.push(el); }
      });
    }
  }

  // A "Saved" line of the card beside the buttons' group, shown.
  function savedBeside(group) {
    return Array.prototype.some.call(group.parentNode.children, function (el) {
      return el.classList.contains("saved") && !el.hidden;
    });
  }

  // The tap did not get through (sent: its answer did not come back, so whether the game took
  // it is not known): kept, said beside its buttons, tried again soon.
  function hold(tap, sent) {
    pending = tap;
    say("");  // a "Saved" or "Sending…" from before would say the opposite
    setNote({ kind: "pending", tap: tap, unconfirmed: !!sent });
    retrySoon();
  }

  // A part shown while a tap is kept: when it shows the tap held, the tap got there.
  document.addEventListener("live-shown", function () {
    if (!pending || pending.sending || probing) return;
    var button = buttonFor(pending);
    if (button && button.getAttribute("aria-pressed") === "true") judge(pending);
  });

  function retrySoon() {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = setTimeout(function () { retryTimer = null; probe(); }, 2500);
  }

  // Whether the laptop answers: the part fetched, then the pending tap judged on it.
  function probe() {
    if (!pending || probing || pending.sending) return;
    probing = true;
    refresh().then(function (answered) {
      probing = false;
      if (!pending || pending.sending) return;
      if (answered) judge(pending); else retrySoon();
    });
  }

  // The part is as the game holds it: the tap is sent again if it still means what it meant.
  function judge(tap) {
    var button = buttonFor(tap);
    if (button && button.getAttribute("aria-pressed") === "true") {
      pending = null;  // it got there after all (its answer was lost): the page shows it
      setNote(tap.sent ? { kind: "done", late: true, tap: tap, text: words("sayConfirmed",
        "Your tap got there after all: the game holds it, as this page shows.") } : null);
    } else if (!button || button.disabled || stamp() !== tap.stamp) {
      pending = null;  // the game moved on meanwhile: sent now, it might not be meant
      setNote({ kind: "bad", tap: tap, text: words("sayMovedOn", "Not sent: the game's " +
        "laptop did not answer, and the game has moved on since. This page shows what the " +
        "game holds now.") });
    } else {
      tap.again = true;
      send(tap, button);
    }
  }

  function send(tap, button) {
    tap.sending = true;
    tap.sent = true;
    button.classList.add("busy");
    if (!tap.again) say(words("saySending", "Sending…"));
    within(tap.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Tab": tab },
      body: JSON.stringify(tap.payload),
      cache: "no-store",
      credentials: "same-origin"
    })
      .then(function (r) {
        var v = versionOf(r.headers.get("X-View-Version"));
        return r.json().then(function (data) { return { ok: r.ok, data: data, version: v }; });
      })
      .then(function (answer) {
        tap.sending = false;
        var latest = tap === lastTap;
        if (latest) {
          pending = null;
          if (answer.ok) {
            // what the tap did, beside its buttons (the status line is above the first card)
            setNote(answer.data.message ? { kind: "done", tap: tap, text: answer.data.message } : null);
          } else if (!tap.again) {
            setNote({ kind: "bad", tap: tap,
              text: answer.data.error || words("sayFailed", "That did not work; try again.") });
          } else {
            // sent again once the laptop answered, and refused: said beside its buttons
            var reason = answer.data.error || words("sayFailed", "That did not work; try again.");
            setNote({ kind: "bad", tap: tap, text: words("sayRefused",
              "Not sent when the game's laptop answered again: %(reason)s")
              .replace("%(reason)s", function () { return reason; }) });
          }
        }
        var v = answer.version;
        // the part the answer carries, unless the page shows a newer whole part or says a
        // later answer
        var carried = answer.ok && typeof answer.data.html === "string" && v >= 0 &&
          v >= viewVersion && v >= saidVersion;
        // An answer older than what the page shows or says (a later tap's answer came first):
        // its message would contradict them.
        if (!carried && v >= 0 && (v < version || v < saidVersion)) return null;
        // an earlier tap's answer says nothing while the latest is kept to be sent (its part
        // is shown all the same, if not older)
        if (latest || !pending) {
          if (answer.ok) say(answer.data.message);
          else if (!tap.again) say(answer.data.error || words("sayFailed", "That did not work; try again."), true);
        }
        if (v >= 0) saidVersion = v;
        if (carried) { stampNext = true; show(answer.data.html, v, true); return null; }
        if (v >= 0 && version >= v) { saidAt = stamp(); stampNext = false; return null; }
        stampNext = true;  // the page shows less than the answer: its part, if not older
        return refresh();
      }, function () {
        // No answer (refused at the network, or none in time): the laptop is not answering.
        // The tap is kept and sent again by itself once it answers (only the latest tap).
        tap.sending = false;
        if (tap === lastTap) hold(tap, true);
      })
      .then(unbusy, unbusy);

    function unbusy() { button.classList.remove("busy"); }
  }

  function act(button) {
    var field = button.dataset.field;
    var payload = {};
    payload[field] = button.dataset.value;
    // data-with: the ticked boxes of that name go with it, as a list of their values
    if (button.dataset.with) {
      payload[button.dataset.with] = Array.prototype.map.call(
        live.querySelectorAll("input[type=checkbox][name=\"" + button.dataset.with + "\"]:checked"),
        function (box) { return box.value; });
    }
    // data-send-version on the body: the version the page shows goes with the tap (the game
    // master's phone: a tap made on a page older than the game is refused, never done twice)
    if (body.dataset.sendVersion) payload.after = Math.max(version, 0);
    var tap = {
      url: apiUrl + "/" + button.dataset.action, payload: payload, action: button.dataset.action,
      field: field, value: button.dataset.value, stamp: stamp(), again: false, sending: false
    };
    lastTap = tap;
    pending = null;  // a new tap is the player's latest word
    if (note) setNote(null);
    if (navigator.onLine === false) { hold(tap); banner(true); return; }
    send(tap, button);
  }

  var armed = null;  // a button waiting for its confirming second tap
  var disarmTimer = null;

  var asking = null;  // the question said above an armed button with data-ask

  function disarm() {
    if (disarmTimer) { clearTimeout(disarmTimer); disarmTimer = null; }
    if (armed && armed.isConnected) {
      armed.textContent = armed.dataset.label;
      armed.classList.remove("armed");
    }
    if (asking && asking.parentNode) asking.parentNode.removeChild(asking);
    armed = null;
  }

  // A button with data-ask says that question (data-ask-title above it) while it waits for
  // its second tap, and waits longer: the time to read it.
  function arm(button) {
    disarm();
    armed = button;
    button.dataset.label = button.textContent;
    button.textContent = button.dataset.confirm;
    button.classList.add("armed");
    if (button.dataset.ask) {
      if (!asking) {
        asking = document.createElement("div");
        asking.id = "asking";
        asking.className = "asking";
        asking.setAttribute("role", "alert");
      }
      asking.textContent = "";
      if (button.dataset.askTitle) {
        var title = document.createElement("strong");
        title.textContent = button.dataset.askTitle;
        asking.appendChild(title);
        asking.appendChild(document.createTextNode(" "));
      }
      asking.appendChild(document.createTextNode(button.dataset.ask));
      button.parentNode.insertBefore(asking, button);
    }
    disarmTimer = setTimeout(disarm, button.dataset.ask ? 15000 : 5000);
  }

  if (live) {
    live.addEventListener("click", function (e) {
      var button = e.target.closest("button[data-action]");
      if (!button || button.disabled) { disarm(); return; }
      if (button.dataset.confirm && button !== armed) { arm(button); return; }
      disarm();
      act(button);
    });
  }

  var idleTimer = null;

  function setCovered(covered) {
    if (!cover || !page) return;
    cover.hidden = !covered;
    page.hidden = covered;
    stillThere();
  }

  // A page with data-cover-after (seconds) covers itself when left untouched that long: a
  // phone put down on the table must not show its choice to the room.
  function stillThere() {
    if (idleTimer) { clearTimeout(idleTimer); idleTimer = null; }
    var seconds = parseFloat(body.dataset.coverAfter);
    if (!cover || cover.hidden === false || !(seconds > 0)) return;
    idleTimer = setTimeout(function () { say(""); setCovered(true); }, seconds * 1000);
  }
  ["pointerdown", "click", "keydown", "scroll", "touchstart"].forEach(function (name) {
    window.addEventListener(name, stillThere, { passive: true });
  });

  if (cover) cover.addEventListener("click", function () { setCovered(false); });
  if (hide) hide.addEventListener("click", function () { say(""); setCovered(true); });

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      refresh();
      // back at once, not after the browser's back-off: a stream not open now is replaced
      if (!source || source.readyState !== 1) connect();
      keepAwake();  // a lock is let go when the page is hidden
    } else {
      setCovered(true);
      say("");
      keepAwake();  // nothing to keep awake: the video stops
    }
  });

  shown();
  connect();
  setInterval(watch, 1000);
  body.dataset.ready = "1";
})();
