// The board's sound cues, made in the browser (nothing downloaded): a chime when a countdown
// reaches zero, a sting when a search's reveal shows CAUGHT. The button (or the key M) turns
// them on or off, remembered in this browser; browsers allow sound only after a click or a key
// on the page, so until then the button says so, in the words the page gives it (data-sound-off,
// data-sound-allow, data-sound-on on the body: the board's language), and a hint says it once.
(function () {
  "use strict";
  var KEY = "companion.board.sound";
  var button = document.getElementById("sound");
  var audio = null;  // the AudioContext, made at the first chance
  var lastCaught = caughtNow();  // a CAUGHT already on screen when the page opened is not news

  function wanted() {
    try { return window.localStorage.getItem(KEY) !== "off"; } catch (e) { return true; }
  }

  function remember(on) {
    try { window.localStorage.setItem(KEY, on ? "on" : "off"); } catch (e) { /* private mode */ }
  }

  function context() {
    var Audio = window.AudioContext || window.webkitAudioContext;
    if (!audio && Audio) {
      try { audio = new Audio(); } catch (e) { audio = null; }
    }
    return audio;
  }

  function allowed() {
    return !!(audio && audio.state === "running");
  }

  var hint = document.getElementById("sound-hint");
  var HINT_SECONDS = 20;
  var hinted = false;  // said once (for HINT_SECONDS, or until the next phase): enough

  function label() {
    // Until the browser allows sound, a hint the game master sees once: click the board. Then
    // only the button says so.
    if (hint) hint.hidden = hinted || !(wanted() && !allowed());
    if (!button) return;
    var on = wanted();
    button.setAttribute("aria-pressed", on ? "true" : "false");
    var words = document.body.dataset;
    if (!on) button.textContent = words.soundOff || "Sound off (M)";
    else if (!allowed()) button.textContent = words.soundAllow || "Sound on: click to allow (M)";
    else button.textContent = words.soundOn || "Sound on (M)";
  }

  function wake() {  // a user gesture: the browser now lets the page make sound
    var ctx = context();
    label();
    // resume() settles only once the browser allows sound (it may wait for a real gesture)
    if (ctx && ctx.state === "suspended") ctx.resume().then(label, label);
  }

  function tone(freq, start, length, type, peak) {
    var ctx = audio;
    var osc = ctx.createOscillator();
    var gain = ctx.createGain();
    var t = ctx.currentTime + start;
    osc.type = type;
    osc.frequency.setValueAtTime(freq, t);
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(peak, t + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + length + 0.05);
  }

  function chime() {
    if (!wanted() || !allowed()) return;
    tone(880, 0, 0.9, "sine", 0.25);
    tone(1318.5, 0.18, 1.2, "sine", 0.2);
  }

  function sting() {
    if (!wanted() || !allowed()) return;
    [196, 185, 174.6].forEach(function (f, i) { tone(f, i * 0.16, 0.5 + i * 0.2, "sawtooth", 0.12); });
    tone(98, 0.32, 1.2, "square", 0.08);
  }

  function caughtNow() {
    var li = document.querySelector("#reveal li.caught.last");
    var screen = document.querySelector("[data-stamp]");
    return li ? (screen ? screen.dataset.stamp : "") + " " + li.textContent : null;
  }

  function toggle() {
    remember(!wanted());
    wake();
  }

  document.addEventListener("countdown-zero", chime);
  function enough() {
    hinted = true;
    label();
  }

  function stampNow() {
    var screen = document.querySelector("[data-stamp]");
    return screen ? screen.dataset.stamp : "";
  }

  var hintStamp = stampNow();  // the day and phase the hint was given in
  window.setTimeout(enough, HINT_SECONDS * 1000);
  document.addEventListener("live-shown", function () {
    if (!hinted && stampNow() !== hintStamp) enough();  // the game moved on: said enough
    var caught = caughtNow();
    if (caught && caught !== lastCaught) sting();
    lastCaught = caught;
  });
  ["pointerdown", "keydown"].forEach(function (name) {
    window.addEventListener(name, wake, { passive: true });
  });
  document.addEventListener("keydown", function (e) {
    if ((e.key === "m" || e.key === "M") && !e.ctrlKey && !e.metaKey && !e.altKey) toggle();
  });
  if (button) button.addEventListener("click", toggle);
  if (context() && audio.state === "suspended" && audio.onstatechange !== undefined) {
    audio.onstatechange = label;
  }
  label();
})();
