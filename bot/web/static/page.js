// A game's page, live: the times in the reader's own time zone, the replay slider, the
// game file's check, and the page kept up with the game as it is committed (server-sent
// events; the browser resumes with Last-Event-ID after a drop, so nothing is missed; the
// live line says when the stream is lost, and again when it is back).
"use strict";
(function () {
  const body = document.body;
  const lang = body.dataset.lang || document.documentElement.lang || "en";
  const base = body.dataset.base;

  function localTimes(root) {
    const fmt = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
    root.querySelectorAll("time[datetime]").forEach(function (t) {
      const when = new Date(t.getAttribute("datetime"));
      if (!isNaN(when)) { t.textContent = fmt.format(when); t.title = when.toISOString(); }
    });
  }
  localTimes(document);
  if (!base) return;

  const slider = document.getElementById("slider");
  const frame = document.getElementById("frame");
  const step = document.getElementById("step");
  function showStep() {
    if (!slider) return;
    const n = Number(slider.value);
    // the address names the game's version: a step taken back and played again is a
    // new address, never the old board from a cache
    frame.src = base + "/v/" + body.dataset.pictures + "/replay/" + n + ".png?lang=" + lang;
    step.textContent = step.dataset.words.replace("{step}", n).replace("{count}", slider.max);
  }
  if (slider) slider.addEventListener("input", showStep);

  const check = document.getElementById("check");
  const own = document.getElementById("own");
  const verdict = document.getElementById("verdict");
  function checkText(words) {
    fetch("/check?lang=" + lang, { method: "POST", body: words,
                                   headers: { "Content-Type": "application/json" } })
      .then(function (r) {
        if (r.ok) return r.json();
        // refused (too many checks, busy): the refusal page's sentence, in the page's words
        return r.text().then(function (page) {
          const said = new DOMParser().parseFromString(page, "text/html").querySelector("main p");
          return { ok: false, report: said ? said.textContent : String(r.status) };
        });
      })
      .then(function (v) { verdict.textContent = v.report; verdict.className = v.ok ? "ok" : "bad"; });
  }
  if (check) check.addEventListener("click", function () {
    fetch(base + "/game.json").then(function (r) { return r.text(); }).then(checkText);
  });
  if (own) own.addEventListener("change", function () {
    if (own.files.length) own.files[0].text().then(checkText);
  });

  const live = document.getElementById("live");
  const board = document.getElementById("board");
  const facts = document.getElementById("facts");
  const log = document.getElementById("log");
  const timing = document.getElementById("timing");
  const status = body.dataset.status;
  if (status === "finished" || status === "abandoned") return;  // nothing changes any more
  const liveWords = live.textContent;
  let lost = false;  // the stream dropped: the line says so until it is back
  function follow() {
    const source = new EventSource(base + "/events?lang=" + lang + "&after=" + body.dataset.version);
    source.onopen = function () {
      live.classList.remove("offline");
      if (!lost) return;
      lost = false;
      live.textContent = liveWords;
      // back: the missed versions come by Last-Event-ID; a seat's page asks again for
      // what no version carries (its move's post reaching the channel meanwhile)
      document.dispatchEvent(new CustomEvent("game:online"));
    };
    source.onerror = function () {
      live.classList.add("offline");
      if (!lost && live.dataset.offline) { lost = true; live.textContent = live.dataset.offline; }
      // refused (too many streams, busy): the browser gives up; try again a little later
      if (source.readyState === EventSource.CLOSED) setTimeout(follow, 20000);
    };
    source.onmessage = onEvent;
  }
  function onEvent(message) {
    const e = JSON.parse(message.data);
    body.dataset.version = e.version;
    // a seat's page (seat.js) asks for its own decision at each version
    document.dispatchEvent(new CustomEvent("game:version", { detail: e }));
    if (e.status !== status) { location.reload(); return; }  // started or ended: a new page
    if (e.seq === undefined || !board) return;
    body.dataset.pictures = e.pictures;
    board.src = e.board + "?lang=" + lang;
    board.parentElement.href = board.src;
    board.alt = e.alt;
    facts.innerHTML = e.facts;
    if (timing && e.timing !== undefined) {  // since when it waits, the turn timer's end
      timing.innerHTML = e.timing;
      timing.hidden = e.timing === "";
      localTimes(timing);
    }
    if (e.log !== undefined) { log.innerHTML = e.log; }
    (e.lines || []).forEach(function (line) {
      if (!line) return;
      const empty = log.querySelector(".empty");
      if (empty) empty.remove();
      log.insertAdjacentHTML("afterbegin", line);
      log.firstElementChild.classList.add("fresh");
    });
    localTimes(log);
    if (slider) {
      const atEnd = Number(slider.value) === Number(slider.max);
      slider.max = e.seq;
      if (atEnd) slider.value = e.seq;
      showStep();  // the step shown, at the new version (it may have been taken back)
    }
  }
  follow();
})();
