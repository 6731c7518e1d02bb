// A seat's page: its decision as buttons. A choice is sent as the engine's action text
// with the version the page shows and the session's CSRF token; the answer is the
// decision afterwards, or the refusal's sentence. The split is built by tapping a card,
// then the offer it goes into (buttons: a keyboard does the same); the half-made split is
// kept for this tab (sessionStorage) until it is committed. The decision follows the
// game: page.js tells this script of every new version, and when its stream is back after
// a drop. The status line says whether the shown version's post reached the channel
// (saved, waiting for Discord, posted), asking again while it has not: every tab and
// device of the seat says the same.
"use strict";
(function () {
  const body = document.body;
  const base = body.dataset.base;
  const lang = body.dataset.lang || "en";
  const slot = document.getElementById("decision-slot");
  const said = document.getElementById("said");
  const yours = document.getElementById("yours");
  const undo = document.getElementById("undo");  // while the seat's last move may be taken back
  const posted = document.getElementById("posted");  // the shown version's post, if not out yet
  const offline = document.getElementById("live").dataset.offline || "";
  if (!slot) return;
  let selected = null;  // the card tapped, waiting for its offer
  let busy = false;
  let postTimer = null;
  let postWait = 1000;  // the next look at a waiting post, doubling up to 15 s

  const PENDING = ["saved", "waiting", "blocked"];
  const STUCK = ["waiting", "blocked", "gone"];  // said whoever moved: the channel is behind
  let ours = null;  // the version the seat's own move made (here, in a second tab or device)
  function showPost(p, own) {  // own: the seat's move made this version
    if (!p || !posted) return;
    const shown = current();
    if (shown && String(p.version) !== shown.dataset.version) return;  // an older version's
    clearTimeout(postTimer);
    if (own) ours = String(p.version);
    const pending = PENDING.indexOf(p.state) >= 0;
    const was = posted.dataset.state;
    // the seat's own move: saved, then posted or waiting; another seat's move is told
    // only while Discord holds its post, and once that post is out
    const say = ours === String(p.version) ? p.state !== "none" :
      STUCK.indexOf(p.state) >= 0 || (p.state === "sent" && STUCK.indexOf(was) >= 0);
    posted.dataset.version = p.version;
    posted.dataset.state = say ? p.state : "";
    if (posted.textContent !== (say ? p.said : "")) posted.textContent = say ? p.said : "";
    if (!pending) { postWait = 1000; return; }
    postTimer = setTimeout(function () { askPost(p.version); }, postWait);
    postWait = Math.min(postWait * 2, 15000);
  }
  function askPost(version) {
    fetch(base + "/seat/post?version=" + version + "&lang=" + lang, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (a) {
        if (a) { showPost(a.post, false); return; }
        postTimer = setTimeout(function () { askPost(version); }, postWait);
      })
      .catch(function () {  // offline: look again later (and when the stream is back)
        postTimer = setTimeout(function () { askPost(version); }, postWait);
        postWait = Math.min(postWait * 2, 15000);
      });
  }

  function current() { return document.getElementById("decision-body"); }
  function key(d) {  // this deal's half-made split, per tab
    const cards = Array.from(d.querySelectorAll(".card")).map(function (c) { return c.textContent; });
    return "split:" + base + ":" + cards.join("|");
  }

  function limitWords(n) { return body.dataset.limit.replace("{limit}", n); }
  function refresh(d) {
    const builder = d.querySelector(".builder");
    if (!builder) return;
    const assignment = [];
    let loose = 0;
    builder.querySelectorAll(".offer").forEach(function (offer) {
      const cards = offer.querySelectorAll(".card");
      const k = offer.dataset.offer;
      let sum = 0;
      cards.forEach(function (c) {
        sum += Number(c.dataset.limit);
        assignment[Number(c.dataset.card)] = k;
      });
      if (k === "") { loose = cards.length; return; }
      offer.querySelector(".sum").textContent = limitWords(sum);
      const empty = offer.querySelector(".empty");
      if (empty) empty.hidden = cards.length > 0;
    });
    document.getElementById("commit").disabled = loose > 0;
    try { sessionStorage.setItem(key(d), JSON.stringify(assignment)); } catch (e) { /* private mode */ }
  }
  function place(d, card, k) {
    const offer = d.querySelector('.offer[data-offer="' + k + '"] .cards');
    if (!offer || !card) return;
    offer.appendChild(card);
    card.setAttribute("aria-pressed", "false");
    card.classList.remove("chosen");
  }
  function restore(d) {
    if (!d.querySelector(".builder")) return;
    let kept = null;
    try { kept = JSON.parse(sessionStorage.getItem(key(d)) || "null"); } catch (e) { kept = null; }
    if (Array.isArray(kept)) {
      kept.forEach(function (k, i) {
        if (k !== null && k !== undefined && k !== "") place(d, d.querySelector('.card[data-card="' + i + '"]'), k);
      });
    }
    refresh(d);
  }

  function show(answer) {  // true: a new version after the seat's own decision (its move)
    const before = current();
    const wasMine = before && before.dataset.mine === "yes";
    const sameVersion = before && String(answer.version) === before.dataset.version;
    if (sameVersion) return false;
    if (undo.dataset.version !== String(answer.version)) undo.hidden = true;  // moved on
    slot.innerHTML = answer.html;
    selected = null;
    const d = current();
    restore(d);
    if (answer.mine && !wasMine) {
      yours.textContent = "";
      setTimeout(function () { yours.textContent = body.dataset.yours; }, 50);
    }
    return Boolean(wasMine);
  }
  function sayRefusal(r) {
    return r.json().catch(function () {
      return r.text().then(function (page) {  // the guard's page: its sentence
        const p = new DOMParser().parseFromString(page, "text/html").querySelector("main p");
        return { said: p ? p.textContent : String(r.status) };
      });
    }).then(function (a) { said.textContent = a.said; });
  }
  function load() {
    return fetch(base + "/seat/decision?lang=" + lang, { credentials: "same-origin" })
      .then(function (r) {
        if (!r.ok) return sayRefusal(r);
        return r.json().then(function (a) {
          if (offline && said.textContent === offline) said.textContent = "";  // back
          showPost(a.post, show(a));
        });
      })
      .catch(function () { /* offline: the live line says so; the next version retries */ });
  }

  function send(action, taken) {  // taken: the move made at that version, taken back
    if (busy) return;
    const d = current();
    busy = true;
    said.textContent = body.dataset.sending;
    const form = new URLSearchParams({ action: action, version: taken || d.dataset.version });
    fetch(base + (taken ? "/seat/undo?lang=" : "/seat/act?lang=") + lang, {
      method: "POST", credentials: "same-origin", body: form,
      headers: { "X-CSRF-Token": body.dataset.csrf }
    }).then(function (r) {
      if (r.ok) {
        return r.json().then(function (a) {
          said.textContent = "";
          try { sessionStorage.removeItem(key(d)); } catch (e) { /* private mode */ }
          undo.hidden = !a.undoable;
          undo.dataset.version = a.version;
          show(a);
          showPost(a.post, true);
        });
      }
      return sayRefusal(r).then(load);
    }).catch(function () {
      // not answered: whether it was saved shows when the page is back (a second send
      // of the same move would be refused: it names an older version)
      said.textContent = offline;
    }).finally(function () { busy = false; });
  }

  slot.addEventListener("click", function (ev) {
    const button = ev.target.closest("button");
    if (!button || button.disabled) return;
    const d = current();
    if (button.classList.contains("act")) { send(button.dataset.action); return; }
    if (button.classList.contains("card")) {
      if (selected === button) { selected = null; button.setAttribute("aria-pressed", "false"); button.classList.remove("chosen"); return; }
      if (selected) { selected.setAttribute("aria-pressed", "false"); selected.classList.remove("chosen"); }
      selected = button;
      button.setAttribute("aria-pressed", "true");
      button.classList.add("chosen");
      return;
    }
    if (button.classList.contains("target")) {
      if (selected) { place(d, selected, button.dataset.offer); selected = null; refresh(d); }
      return;
    }
    if (button.id === "reset") {
      d.querySelectorAll(".card").forEach(function (c) { place(d, c, ""); });
      const pool = d.querySelector(".pool .cards");
      Array.from(pool.querySelectorAll(".card"))
        .sort(function (a, b) { return a.dataset.card - b.dataset.card; })
        .forEach(function (c) { pool.appendChild(c); });
      selected = null;
      refresh(d);
      return;
    }
    if (button.id === "commit") {
      const digits = [];
      d.querySelectorAll(".card").forEach(function (c) {
        digits[Number(c.dataset.card)] = c.closest(".offer").dataset.offer;
      });
      if (digits.some(function (k) { return k === ""; })) return;
      send("split:" + digits.join(""));
    }
  });

  undo.addEventListener("click", function () { send("", undo.dataset.version); });
  document.addEventListener("game:version", load);
  document.addEventListener("game:online", load);
  if (posted && PENDING.indexOf(posted.dataset.state) >= 0) {
    showPost({ version: posted.dataset.version, state: posted.dataset.state,
               said: posted.textContent }, false);
  }
  restore(current());
  if (current() && current().dataset.mine === "yes") yours.textContent = body.dataset.yours;
})();
