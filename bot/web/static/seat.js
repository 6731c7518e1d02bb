// A seat's page: its decision as buttons. A choice is sent as the engine's action text
// with the version the page shows and the session's CSRF token; the answer is the
// decision afterwards, or the refusal's sentence. The split is built by tapping a card,
// then the offer it goes into (buttons: a keyboard does the same), or by dragging a card
// into an offer (and back) with a mouse. The half-made split is kept by the server
// (POST seat/draft after each change), shared with Discord's offer builder and the seat's
// other tabs and devices: the page picks a change made elsewhere up when the tab becomes
// visible and every few seconds while the split awaits it (bounded); a split being made
// here goes on when the other distributor's commit moves the game on. The decision follows
// the game: page.js tells this script of every new version, and when its stream is back
// after a drop. The status line says whether the shown version's post reached the channel
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
  function builderOf(d) { return d ? d.querySelector(".builder") : null; }
  function digitsOf(d) {  // each drawn card's offer, "-" while loose
    const digits = [];
    d.querySelectorAll(".builder .card").forEach(function (c) {
      const k = c.closest(".offer").dataset.offer;
      digits[Number(c.dataset.card)] = k === "" ? "-" : k;
    });
    return digits.join("");
  }

  function cardsOf(d) {  // the drawn cards as the page names them, in the draw's order
    return Array.from(d.querySelectorAll(".builder .card"))
      .sort(function (a, b) { return a.dataset.card - b.dataset.card; })
      .map(function (c) { return c.textContent; }).join("|");
  }

  function limitWords(n) { return body.dataset.limit.replace("{limit}", n); }
  function refresh(d) {
    const builder = d.querySelector(".builder");
    if (!builder) return;
    let loose = 0;
    builder.querySelectorAll(".offer").forEach(function (offer) {
      const cards = offer.querySelectorAll(".card");
      const k = offer.dataset.offer;
      let sum = 0;
      cards.forEach(function (c) { sum += Number(c.dataset.limit); });
      if (k === "") { loose = cards.length; return; }
      offer.querySelector(".sum").textContent = limitWords(sum);
      const empty = offer.querySelector(".empty");
      if (empty) empty.hidden = cards.length > 0;
    });
    document.getElementById("commit").disabled = loose > 0;
  }
  function place(d, card, k) {
    const offer = d.querySelector('.offer[data-offer="' + k + '"] .cards');
    if (!offer || !card) return;
    offer.appendChild(card);
    card.setAttribute("aria-pressed", "false");
    card.classList.remove("chosen");
  }
  // The half-made split to the server, shortly after the last change (one request for a
  // burst of moves); a refusal says why and shows the server's split again.
  let saving = null;  // the digits being sent, while a draft request is under way
  let saved = Promise.resolve();  // that request's end (a commit waits for it)
  let epoch = 0;  // counts changes made here and drafts stored: a read begun before is old
  let dirty = false;  // changed here since the last draft sent
  let timer = null;
  function changed(d) {
    refresh(d);
    dirty = true;
    epoch += 1;
    polls = 0;
    clearTimeout(timer);
    timer = setTimeout(saveDraft, 300);
  }
  function saveDraft() {
    const d = current();
    const b = builderOf(d);
    if (!b || saving !== null) { if (b) timer = setTimeout(saveDraft, 300); return; }
    const digits = digitsOf(d);
    dirty = false;
    if (digits === b.dataset.draft) return;
    saving = digits;
    const shown = d.dataset.version;
    const form = new URLSearchParams({ draft: digits, version: shown });
    saved = fetch(base + "/seat/draft?lang=" + lang, {
      method: "POST", credentials: "same-origin", body: form,
      headers: { "X-CSRF-Token": body.dataset.csrf }
    }).then(function (r) {
      epoch += 1;
      if (r.ok) { b.dataset.draft = digits; return null; }
      // the game moved on: its decision now (``show`` carries this split over while the
      // same cards are still to split), unless the page shows it already
      if (r.status === 409) return current().dataset.version !== shown ? null : load(true);
      return sayRefusal(r).then(function () { return load(true); });
    }).catch(function () {
      said.textContent = offline;
    }).finally(function () { saving = null; });
  }

  function show(answer, force, at) {  // true: a new version after the seat's own decision
    const before = current();
    const wasMine = before && before.dataset.mine === "yes";
    const sameVersion = before && String(answer.version) === before.dataset.version;
    const b = builderOf(before);
    // the same version: only a half-made split changed elsewhere (Discord, another tab) is
    // shown, and never over one being made here
    const elsewhere = sameVersion && b && answer.draft !== undefined &&
      answer.draft !== b.dataset.draft && saving === null && !dirty && !selected &&
      !dragged && at === epoch;
    if (sameVersion && !elsewhere && !force) return false;
    // a split being made here when the game moves on (the other distributor committed):
    // it goes on in the new decision while the same cards are still to split
    const going = !sameVersion && b && (dirty || saving !== null)
      ? { digits: digitsOf(before), cards: cardsOf(before) } : null;
    if (undo.dataset.version !== String(answer.version)) undo.hidden = true;  // moved on
    slot.innerHTML = answer.html;
    selected = null;
    const d = current();
    if (going && builderOf(d) && cardsOf(d) === going.cards) {
      going.digits.split("").forEach(function (k, i) {
        place(d, d.querySelector('.card[data-card="' + i + '"]'), k === "-" ? "" : k);
      });
      changed(d);
    } else if (builderOf(d)) refresh(d);
    document.title = answer.mine ? body.dataset.mineTitle : body.dataset.title;  // the tab
    if (answer.mine && !wasMine) {
      yours.textContent = "";
      setTimeout(function () { yours.textContent = body.dataset.yours; }, 50);
    }
    return Boolean(wasMine) && !sameVersion;
  }
  function sayRefusal(r) {
    return r.json().catch(function () {
      return r.text().then(function (page) {  // the guard's page: its sentence
        const p = new DOMParser().parseFromString(page, "text/html").querySelector("main p");
        return { said: p ? p.textContent : String(r.status) };
      });
    }).then(function (a) { said.textContent = a.said; });
  }
  function load(force) {
    const at = epoch;
    return fetch(base + "/seat/decision?lang=" + lang, { credentials: "same-origin" })
      .then(function (r) {
        if (!r.ok) return sayRefusal(r);
        return r.json().then(function (a) {
          if (offline && said.textContent === offline) said.textContent = "";  // back
          showPost(a.post, show(a, force === true, at));
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
      if (selected) { place(d, selected, button.dataset.offer); selected = null; changed(d); }
      return;
    }
    if (button.id === "reset") {
      d.querySelectorAll(".card").forEach(function (c) { place(d, c, ""); });
      const pool = d.querySelector(".pool .cards");
      Array.from(pool.querySelectorAll(".card"))
        .sort(function (a, b) { return a.dataset.card - b.dataset.card; })
        .forEach(function (c) { pool.appendChild(c); });
      selected = null;
      changed(d);
      return;
    }
    if (button.id === "commit") {
      const digits = [];
      d.querySelectorAll(".card").forEach(function (c) {
        digits[Number(c.dataset.card)] = c.closest(".offer").dataset.offer;
      });
      if (digits.some(function (k) { return k === ""; })) return;
      clearTimeout(timer);
      dirty = false;
      saved.then(function () { send("split:" + digits.join("")); });
    }
  });

  // Dragging with a mouse (HTML5 drag and drop): a card onto an offer or back onto the
  // drawn cards; a tap and the keyboard keep working as above.
  let dragged = null;
  slot.addEventListener("dragstart", function (ev) {
    const card = ev.target.closest && ev.target.closest(".builder .card");
    if (!card) return;
    dragged = card;
    ev.dataTransfer.effectAllowed = "move";
    ev.dataTransfer.setData("text/plain", card.dataset.card);
    card.classList.add("dragging");
  });
  slot.addEventListener("dragend", function () {
    if (dragged) dragged.classList.remove("dragging");
    dragged = null;
    slot.querySelectorAll(".offer.over").forEach(function (o) { o.classList.remove("over"); });
  });
  function dropTarget(ev) { return dragged && ev.target.closest ? ev.target.closest(".builder .offer") : null; }
  slot.addEventListener("dragover", function (ev) {
    const offer = dropTarget(ev);
    if (!offer) return;
    ev.preventDefault();  // a drop is allowed here
    ev.dataTransfer.dropEffect = "move";
    slot.querySelectorAll(".offer.over").forEach(function (o) { if (o !== offer) o.classList.remove("over"); });
    offer.classList.add("over");
  });
  slot.addEventListener("drop", function (ev) {
    const offer = dropTarget(ev);
    if (!offer) return;
    ev.preventDefault();
    const d = current();
    offer.classList.remove("over");
    if (selected) { selected.setAttribute("aria-pressed", "false"); selected.classList.remove("chosen"); selected = null; }
    place(d, dragged, offer.dataset.offer);
    dragged.classList.remove("dragging");
    dragged = null;
    changed(d);
  });

  // A split made elsewhere too: re-read the decision when the tab comes back, and every
  // few seconds while this seat's split is awaited and the tab is seen, for ten minutes
  // after the last change or return at most.
  const POLL_MS = 4000, POLLS = 150;
  let polls = 0;
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { polls = 0; load(); }
  });
  setInterval(function () {
    const d = current();
    if (document.visibilityState !== "visible" || !builderOf(d) || d.dataset.mine !== "yes") return;
    if (polls >= POLLS || saving !== null || dirty || busy) return;
    polls += 1;
    load();
  }, POLL_MS);

  undo.addEventListener("click", function () { send("", undo.dataset.version); });
  document.addEventListener("game:version", load);
  document.addEventListener("game:online", load);
  if (posted && PENDING.indexOf(posted.dataset.state) >= 0) {
    showPost({ version: posted.dataset.version, state: posted.dataset.state,
               said: posted.textContent }, false);
  }
  if (builderOf(current())) refresh(current());
  if (current() && current().dataset.mine === "yes") yours.textContent = body.dataset.yours;
})();
