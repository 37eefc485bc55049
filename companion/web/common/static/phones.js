// Players' phones (the prison break and the dilemma warm-up): live updates by server-sent
// events, actions by small JSON posts. The page never builds HTML itself: it swaps in parts
// rendered (and escaped) by the server. A page marked data-quiet-when-done clears its status
// line once no action is left (the round moved on: the last "Saved" would only confuse); a
// part that carries a data-stamp (day and phase) clears it when the stamp moves on from the one
// the message was given in. A button with data-confirm acts only on a second tap. A page with
// data-cover-after puts its cover back when left untouched that many seconds. A button with
// data-with sends the values of the ticked boxes of that name along (a list).
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
// Words: the page gives the script its sentences in its own language, as data-say-sending,
// data-say-failed and data-say-unreachable on the body (English when a page has none).
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
    if (clocks.length) { tick(); ticker = setInterval(tick, 250); }
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
    var kept = ticked();
    live.innerHTML = html;
    shownHtml = html;
    retick(kept);
    if (v >= 0) viewVersion = v;
    if (patched && patched.v > v) setTexts(patched.texts);
    if (unsent >= 0 && version > unsent) unsentDone();
    shown();
    if (body.dataset.quietWhenDone && !live.querySelector("button[data-action]")) say("");
    var now = stamp();
    if (stampNext) { saidAt = now; stampNext = false; }
    else if (saidAt !== null && now !== saidAt) say("");
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

  function say(text, bad) {
    if (!statusLine) return;
    if (!text) saidAt = null;
    statusLine.textContent = text || "";
    statusLine.className = "status" + (bad ? " bad" : text ? " good" : "");
  }

  function refresh() {
    if (!partUrl) return Promise.resolve();
    return fetch(partUrl, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) {
        if (r.status === 404) { window.location.reload(); return null; }
        if (!r.ok) return null;
        var v = versionOf(r.headers.get("X-View-Version"));
        return r.text().then(function (html) { show(html, v); });
      })
      .catch(function () { /* offline: the event stream will catch up */ });
  }

  // ---- the stream, and a watchdog on it ----
  // The banner (#offline) shows whenever the stream is not known to be open: an error, the
  // browser's "offline" event, or a stream silent for two heartbeats (a Wi-Fi that died
  // without closing the connection), which is then reopened. A stream the browser gave up on
  // (closed after a failed reconnection) is reopened too, every few seconds.
  var beatMs = 15000;  // how often the server's "beat" comes (each beat tells it)
  var heardAt = Date.now();  // the last time the stream said anything
  var openedAt = 0;  // the last time a stream was opened here
  var unsent = -1;  // the status line says a send did not get through (the version shown then)
  var lost = false;  // the stream was lost since that was said

  function banner(on) {
    if (offline) offline.hidden = !on;
    if (on) lost = true;
    if (on) delete body.dataset.live; else body.dataset.live = "1";
  }

  function heard() {
    heardAt = Date.now();
    banner(false);
  }

  // A "Not sent" stays only while it is the latest news: once the stream is back after being
  // lost, or a newer view shows what the game holds, the page tells the truth by itself (the
  // player taps again if it is not what they chose).
  function unsentDone() {
    if (unsent >= 0) { unsent = -1; say(""); }
  }

  function backInTouch() {
    var was = lost;
    heard();
    lost = false;
    if (was) unsentDone();
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
    if (!source) return;
    var now = Date.now();
    if (source.readyState === 2) {  // closed for good by the browser: try again ourselves
      banner(true);
      if (now - openedAt > 3000) connect();
    } else if (now - heardAt > 2 * beatMs + 1000) {  // two beats missed: the stream is dead
      banner(true);
      connect();
    }
  }

  window.addEventListener("offline", function () { banner(true); });
  // Back online: a stream that looks open may be dead; a fresh one sends the whole view when
  // the page is behind the game, and says the page is in touch again.
  window.addEventListener("online", function () { if (source) connect(); });

  function notSent() {
    unsent = Math.max(version, 0);
    lost = false;
    say(body.dataset.sayUnreachable ||
      "Not sent: the game cannot be reached. Check the Wi-Fi and try again.", true);
  }

  // A tap sends once: when it cannot get through, the page says so, and it is sent again only
  // when the player taps again (never later by itself, when it may no longer be meant).
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
    if (navigator.onLine === false) { notSent(); banner(true); return; }
    button.classList.add("busy");
    say(body.dataset.saySending || "Sending…");
    fetch(apiUrl + "/" + button.dataset.action, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Tab": tab },
      body: JSON.stringify(payload),
      cache: "no-store",
      credentials: "same-origin"
    })
      .then(function (r) {
        var v = versionOf(r.headers.get("X-View-Version"));
        return r.json().then(function (data) { return { ok: r.ok, data: data, version: v }; });
      })
      .then(function (answer) {
        var v = answer.version;
        // the part the answer carries, unless the page shows a newer whole part or says a
        // later answer
        var carried = answer.ok && typeof answer.data.html === "string" && v >= 0 &&
          v >= viewVersion && v >= saidVersion;
        // An answer older than what the page shows or says (a later tap's answer came first):
        // its message would contradict them.
        if (!carried && v >= 0 && (v < version || v < saidVersion)) return null;
        unsent = -1;
        if (answer.ok) say(answer.data.message);
        else say(answer.data.error || body.dataset.sayFailed || "That did not work; try again.", true);
        if (v >= 0) saidVersion = v;
        if (carried) { stampNext = true; show(answer.data.html, v, true); return null; }
        if (v >= 0 && version >= v) { saidAt = stamp(); stampNext = false; return null; }
        stampNext = true;  // the page shows less than the answer: its part, if not older
        return refresh();
      })
      .catch(function () {
        // The answer did not arrive: the tap may or may not have been stored. The page says
        // "Not sent" and shows what the game holds as soon as it can tell (a reopened stream
        // sends the whole view when the page is behind it).
        notSent();
        return refresh();
      })
      .then(function () { button.classList.remove("busy"); });
  }

  var armed = null;  // a button waiting for its confirming second tap
  var disarmTimer = null;

  function disarm() {
    if (disarmTimer) { clearTimeout(disarmTimer); disarmTimer = null; }
    if (armed && armed.isConnected) {
      armed.textContent = armed.dataset.label;
      armed.classList.remove("armed");
    }
    armed = null;
  }

  function arm(button) {
    disarm();
    armed = button;
    button.dataset.label = button.textContent;
    button.textContent = button.dataset.confirm;
    button.classList.add("armed");
    disarmTimer = setTimeout(disarm, 5000);
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
