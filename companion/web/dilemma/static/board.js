// The board's sound cue: a short chime when a round is revealed, made in the browser with
// WebAudio (nothing downloaded). The mute button, or the key m, turns it off or on; the choice is
// remembered in this browser. Browsers let sound start only after a click or a key on the page:
// until the browser's audio runs, the button says "click to allow" (data-sound-allow), and a
// click on it then unlocks the sound rather than turning it off (the key m always turns it off
// or on, as on the prison board).
(function () {
  "use strict";
  var KEY = "dilemma-board-sound";
  var button = document.getElementById("sound");
  var live = document.getElementById("live");
  if (!button || !live) return;
  var audio = null;
  var on = true;
  try { on = window.localStorage.getItem(KEY) !== "off"; } catch (e) { on = true; }

  function running() { return !!(audio && audio.state === "running"); }

  function show() {
    button.setAttribute("aria-pressed", on ? "true" : "false");
    // the page gives the words in its language
    var words = document.body.dataset;
    if (!on) button.textContent = words.soundOff || "Sound: off (m)";
    else if (!running()) button.textContent = words.soundAllow || "Sound: on, click to allow (m)";
    else button.textContent = words.soundOn || "Sound: on (m)";
  }

  function context() {
    var Maker = window.AudioContext || window.webkitAudioContext;
    if (!audio && Maker) {
      try { audio = new Maker(); } catch (e) { audio = null; }
      if (audio) audio.onstatechange = show;
    }
    // resume() settles once the browser allows sound (it may wait for a real gesture)
    if (audio && audio.state === "suspended") audio.resume().then(show, show);
    return audio;
  }

  function note(ctx, frequency, start, length) {
    var osc = ctx.createOscillator();
    var gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.3, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
    osc.connect(gain);
    gain.connect(ctx.destination);
    osc.start(start);
    osc.stop(start + length + 0.05);
  }

  function chime() {
    if (!on) return;
    document.body.dataset.chimes = String((parseInt(document.body.dataset.chimes, 10) || 0) + 1);
    try {
      var ctx = context();
      if (!ctx) return;
      var t = ctx.currentTime + 0.05;
      note(ctx, 659.25, t, 0.5);
      note(ctx, 987.77, t + 0.18, 0.8);
    } catch (e) { /* no sound here: the board goes on */ }
  }

  function toggle() {
    on = !on;
    try { window.localStorage.setItem(KEY, on ? "on" : "off"); } catch (e) { /* private mode */ }
    show();
    if (on) context();
  }

  function revealed() {
    var stage = live.querySelector("[data-revealed]");
    return stage ? parseInt(stage.getAttribute("data-revealed"), 10) || 0 : 0;
  }

  // A leaderboard that gives way (board.css: .leaders.fit) shows the rows that fit and says
  // how many it does not show: its data-more names the line that says so.
  // At the end the last round (seen at its reveal) shows below the chart only when it fits
  // whole and every name the leaderboard lists still shows above it; else not at all.
  function fit() {
    var lastRound = live.querySelector(".phase-over .stage-main > #last-round");
    if (!lastRound) { fitLists(); return; }
    lastRound.hidden = false;
    var column = lastRound.parentElement.getBoundingClientRect();
    var box = lastRound.getBoundingClientRect();
    var cut = box.bottom > column.bottom + 1 || lastRound.scrollHeight > lastRound.clientHeight + 1;
    if (fitLists() || cut) { lastRound.hidden = true; fitLists(); }
  }

  function fitLists() {
    var lost = 0;
    live.querySelectorAll(".leaders.fit").forEach(function (list) {
      var more = document.getElementById(list.dataset.more || "");
      if (!more) return;
      var right = list.getBoundingClientRect().right;
      var unseen = 0;
      list.querySelectorAll("li").forEach(function (row) {
        if (row.getBoundingClientRect().left >= right - 1) unseen += 1;
      });
      lost += unseen;
      var count = (parseInt(more.dataset.beyond, 10) || 0) + unseen;
      more.hidden = count === 0;
      if (count) {
        var lang = document.documentElement.lang || undefined;
        var number = String(count);
        try { number = new Intl.NumberFormat(lang).format(count); } catch (e) { /* as is */ }
        more.textContent = (more.dataset.words || "and # more.").replace("#", number);
      }
    });
    return lost > 0;
  }

  var last = revealed();
  new MutationObserver(function () {
    var now = revealed();
    if (now > last) chime();
    last = now;
    fit();
  }).observe(live, { childList: true });
  window.addEventListener("resize", fit);
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(fit);
  fit();

  button.addEventListener("click", function () {
    if (on && !running()) { context(); show(); return; }  // a click unlocks, it does not mute
    toggle();
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "m" || e.key === "M") { if (!e.ctrlKey && !e.metaKey && !e.altKey) toggle(); }
    else if (on) context();
  });
  document.addEventListener("click", function (e) { if (on && e.target !== button) context(); });
  context();  // suspended until a gesture, in most browsers: the button says so
  show();
})();
