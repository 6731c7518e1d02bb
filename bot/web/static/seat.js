// A seat's page: its decision as buttons. A choice is sent as the engine's action text
// with the version the page shows and the session's CSRF token; the answer is the
// decision afterwards, or the refusal's sentence. The split is built by tapping a card,
// then the offer it goes into (buttons: a keyboard does the same); the half-made split is
// kept for this tab (sessionStorage) until it is committed. The decision follows the
// game: page.js tells this script of every new version.
"use strict";
(function () {
  const body = document.body;
  const base = body.dataset.base;
  const lang = body.dataset.lang || "en";
  const slot = document.getElementById("decision-slot");
  const said = document.getElementById("said");
  const yours = document.getElementById("yours");
  const undo = document.getElementById("undo");  // while the seat's last move may be taken back
  if (!slot) return;
  let selected = null;  // the card tapped, waiting for its offer
  let busy = false;

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

  function show(answer) {
    const before = current();
    const wasMine = before && before.dataset.mine === "yes";
    const sameVersion = before && String(answer.version) === before.dataset.version;
    if (sameVersion) return;
    if (undo.dataset.version !== String(answer.version)) undo.hidden = true;  // moved on
    slot.innerHTML = answer.html;
    selected = null;
    const d = current();
    restore(d);
    if (answer.mine && !wasMine) {
      yours.textContent = "";
      setTimeout(function () { yours.textContent = body.dataset.yours; }, 50);
    }
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
      .then(function (r) { return r.ok ? r.json().then(show) : sayRefusal(r); })
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
        });
      }
      return sayRefusal(r).then(load);
    }).catch(function () {
      said.textContent = document.getElementById("live").dataset.offline || "";
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
  restore(current());
  if (current() && current().dataset.mine === "yes") yours.textContent = body.dataset.yours;
})();
