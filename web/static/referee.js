/* The referee console: the hall's queue (web/referee_queue.py), kept live over the hall's
   stream, decided with the keyboard, a tap, or the card picker. Every decision is a referee
   act through the JSON API (POST /api/tables/<table>/referee/<act>), as any other client
   makes it: the console has no path of its own. Uses esc, cardImg, playName and stream
   from live.js; T holds the page's words, LANG its language; the page gives QUEUE (its
   first items), PAGE_SIZE, ME (the referee) and PENALTIES (web/referee_queue.py). Where the
   database holds a tournament, its round's provisional results follow the hall's items
   (referee_results.js). */
"use strict";

const SUITS = ["S", "H", "C", "D"], RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];
const CSRF = document.querySelector('meta[name="csrf"]').content;
/* queue: the hall's items as the server last gave them; results: the tournament's
   (referee_results.js); items: both, as shown */
const state = {queue: QUEUE, results: [], items: [], key: null, busy: false, again: false};
const picker = {item: null, mode: null, chosen: []};

function fill(text, values) {
  return String(text).replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));
}

function clock(epoch) {
  return epoch ? new Date(epoch * 1000).toLocaleTimeString(LANG === "zh" ? "zh-CN" : "en-GB", {hour12: false}) : "";
}

function cards(list) {
  return list.length ? `<span class="cards">${list.map(c => cardImg(c)).join("")}</span>` : `<span class="pass">${T.PASS}</span>`;
}

/* --- one item ---------------------------------------------------------------------------- */

function summaryHTML(it) {
  const play = it.play;
  const conf = play && play.confidence != null ? `<span class="conf">${T.confidence} ${play.confidence.toFixed(2)}</span>` : "";
  return `<div class="item-head">
      <span class="kind kind-${it.kind}">${T["kind." + it.kind]}</span>
      <b class="where">${T.table} ${esc(it.name)}</b>${it.seat ? ` <b>${T[it.seat]}</b>` : ""}
      <time>${clock(it.received)}</time>
      ${it.mine ? `<span class="tag mine">${T.mine}</span>` : it.referee ? `<span class="tag">${fill(T.referee_of, {who: esc(it.referee)})}</span>` : ""}
    </div>
    <div class="item-text">${esc(it.text[LANG])}</div>
    ${play ? `<div class="item-play">${cards(play.cards)} ${conf}</div>` : ""}`;
}

function engineText(play) {
  if (!play) return "";
  const says = play.reading ? [playName(play.reading)] : play.cards.length ? [] : [T.PASS];
  const broke = play.violations.map(c => T["violation." + c] || c);
  return [...says, ...broke].map(esc).join(" · ");
}

/* a rule book's clause: its own words, and in English a rendering with the original beside it */
function wordsHTML(w) {
  return `<blockquote class="words" title="${esc(w.source)}">${LANG === "zh" ? esc(w.zh)
    : `${esc(w.en)} <span class="muted" lang="zh">${esc(w.zh)}</span>`}</blockquote>`;
}

function choicesHTML(play) {
  if (!play.choices) return "";
  return `<div class="choices"><span class="label">${T.camera_read}</span>` + play.choices.map(slot =>
    `<span class="slot">${slot.map(([c, p], i) => `<span class="${i ? "other" : "read"}">${cardImg(c, "tiny")}${p.toFixed(2)}</span>`).join("")}</span>`
  ).join("") + "</div>";
}

function ladderHTML(p) {
  const steps = p.ladder.map(s => fill(T.ladder_step, {count: s.count, penalty: T["penalty." + s.penalty], becomes: T["penalty." + s.becomes]}));
  const given = Object.entries(p.given).map(([k, n]) => `${T["penalty." + k] || k} × ${n}`);
  return `<div class="ladder"><span class="label">${T.ladder}</span> ${steps.map(esc).join(" · ")}
    <br><span class="label">${T[p.seat]} ${T.given}</span> ${given.length ? given.map(esc).join(" · ") : T.none_given}</div>`;
}

/* Where the ladder says this penalty, given once more to the seat, makes a heavier one
   (临沂: the second 违例 is a 犯规): the referee gives that one too. */
function stepUp(penalty, kind) {
  const step = penalty.ladder.find(s => s.penalty === kind);
  if (!step || ((penalty.given[kind] || 0) + 1) % step.count) return "";
  return ` <span class="step-up">${fill(T.step_up, {n: (penalty.given[kind] || 0) + 1, becomes: T["penalty." + step.becomes]})}</span>`;
}

function actionsHTML(it) {
  const out = [];
  let n = 0;
  const covered = it.codes.includes("zone_covered");
  if (it.penalty) {
    out.push(`<div class="penalties">${PENALTIES.map(p =>
      `<button type="button" data-do="penalty" data-penalty="${p}" class="${p === it.penalty.proposed ? "proposed" : "plain"}"><kbd>${p === it.penalty.proposed ? "Enter" : `⇧${++n}`}</kbd> ${T["penalty." + p]}${stepUp(it.penalty, p)}</button>`).join("")}</div>`);
  }
  if (it.kind === "ruling") out.push(`<button type="button" data-do="ack" class="plain"><kbd>A</kbd> ${T.ack_no_penalty}</button>`);
  if (it.kind === "doubt" && !covered) {
    out.push(`<button type="button" data-do="ack" class="primary"><kbd>Enter</kbd> ${T.read_right}</button>`);
  }
  if (it.alternatives.length) {
    out.push(`<div class="alternatives"><span class="label">${T.runner_ups}</span>${it.alternatives.map((a, i) =>
      `<button type="button" class="alt plain" data-do="alt" data-alt="${i}"><kbd>${i + 1}</kbd> ${cards(a.cards)}
        ${a.confidence ? `<span class="conf">${a.confidence.toFixed(2)}</span>` : ""}</button>`).join("")}</div>`);
  }
  if (covered) {
    out.push(`<button type="button" data-do="ack" class="primary"><kbd>Enter</kbd> ${T.nothing_missed}</button>`);
    out.push(`<button type="button" data-do="missed" class="plain"><kbd>C</kbd> ${T.add_missed}</button>`);
  } else if (it.play && it.play.seq != null && it.kind !== "notice") {
    out.push(`<button type="button" data-do="pick" class="plain"><kbd>C</kbd> ${T.pick_cards}</button>`);
  }
  if (it.kind === "notice") out.push(`<button type="button" data-do="ack" class="primary"><kbd>Enter</kbd> ${T.ack}</button>`);
  out.push(`<input class="why" name="why" placeholder="${T.reason_optional}">`);
  out.push(`<button type="button" data-do="dismiss" class="plain"><kbd>D</kbd> ${T.dismiss}</button>`);
  return `<div class="item-acts">${out.join("")}</div>`;
}

function detailHTML(it) {
  const play = it.play;
  const evidence = play && play.seq != null
    ? `<a class="evidence" href="/api/tables/${encodeURIComponent(it.table)}/frames/${play.seq}.jpg" target="_blank">
        <img alt="${T.evidence}" data-src="/api/tables/${encodeURIComponent(it.table)}/frames/${play.seq}/zone.jpg?cards=1"></a>` : "";
  return `<div class="item-detail">
    ${evidence}
    <dl>
      ${play ? `<dt>${fill(T.seat_play, {seat: T[play.seat] || ""})}</dt><dd>${fill(T.seq_no, {seq: play.seq})}
        ${play.read.join() !== play.cards.join() ? `· ${T.camera_read} ${cards(play.read)}` : ""}</dd>` : ""}
      ${play ? `<dt>${T.engine_says}</dt><dd>${engineText(play)}</dd>` : ""}
      ${it.rule ? `<dt>${T.rule_broken}</dt><dd>${it.words.map(wordsHTML).join("")}<span class="muted">${esc(it.rule)}</span></dd>` : ""}
    </dl>
    ${play ? choicesHTML(play) : ""}
    ${it.penalty ? ladderHTML(it.penalty) : ""}
    ${actionsHTML(it)}
  </div>`;
}

function itemNode(it) {
  const li = document.createElement("li");
  li.className = `item kind-${it.kind}`;
  li.dataset.key = it.key;
  li.tabIndex = -1;
  li.innerHTML = it.kind === "result" ? resultHTML(it) : summaryHTML(it) + detailHTML(it);
  li.addEventListener("click", ev => {
    const button = ev.target.closest("button[data-do]");
    if (state.key !== it.key) select(it.key);
    if (!button) return;
    ev.preventDefault();
    if (it.kind === "result") confirmResult(it);
    else perform(it, button.dataset.do, button.dataset);
  });
  return li;
}

/* --- the list ---------------------------------------------------------------------------- */

function render() {
  state.items = [...state.queue.items, ...state.results.map(it => ({...it, open: alerts.get(it.live) || 0}))];
  const list = document.getElementById("queue");
  const nodes = new Map([...list.children].map(li => [li.dataset.key, li]));
  const keep = new Set(state.items.map(it => it.key));
  for (const [key, li] of nodes) if (!keep.has(key)) li.remove();
  state.items.forEach((it, i) => {
    const sig = JSON.stringify(it);
    let li = nodes.get(it.key);
    if (li && li.dataset.sig !== sig) { li.remove(); li = null; }  // the item changed: drawn again
    if (!li) { li = itemNode(it); li.dataset.sig = sig; }
    if (list.children[i] !== li) list.insertBefore(li, list.children[i] || null);
  });
  if (!state.items.some(it => it.key === state.key)) state.key = state.items.length ? state.items[0].key : null;
  select(state.key, false);
  const counts = ["ruling", "doubt", "notice"].map(k =>
    `<span class="kind kind-${k}">${T["kind." + k]} ${state.queue.counts[k] || 0}</span>`);
  if (TOURNAMENT) counts.push(`<span class="kind kind-result">${T["t.kind_result"]} ${state.results.length}</span>`);
  document.getElementById("counts").innerHTML = counts.join(" ");
  const more = state.queue.total - state.queue.items.length;
  document.getElementById("more").textContent = more > 0 ? fill(T.more_items, {n: more})
    : state.items.length ? "" : T.queue_empty;
}

/* An item decided here leaves the screen at once, and the one below it opens. */
function forget(it) {
  const i = state.items.findIndex(x => x.key === it.key);
  if (it.kind === "result") state.results = state.results.filter(x => x.key !== it.key);
  else {
    state.queue.items = state.queue.items.filter(x => x.key !== it.key);
    state.queue.total -= 1;
    state.queue.counts[it.kind] -= 1;
  }
  const left = state.items.filter(x => x.key !== it.key);
  state.key = left.length ? left[Math.min(i, left.length - 1)].key : null;
  render();
}

function select(key, focus = true) {
  state.key = key;
  if (!document.getElementById("tools")?.open) aimTools(current()?.table);
  for (const li of document.querySelectorAll("#queue > li")) {
    const on = li.dataset.key === key;
    li.classList.toggle("selected", on);
    if (on) {
      const img = li.querySelector("img[data-src]");
      if (img && !img.src) { img.onerror = () => img.replaceWith(Object.assign(document.createElement("span"), {className: "muted", textContent: T.no_frame})); img.src = img.dataset.src; }
      if (focus) { li.focus({preventScroll: true}); li.scrollIntoView({block: "nearest"}); }
    }
  }
}

/* The table tools' forms act on the table chosen once for them all: the open item's, while
   the tools are closed. */
function aimTools(table) {
  const tools = document.getElementById("tool-table");
  if (!tools || !table) return;
  tools.value = table;
  document.querySelectorAll("input.tool-table").forEach(input => { input.value = table; });
}

function current() { return state.items.find(it => it.key === state.key) || null; }

function move(step) {
  const i = state.items.findIndex(it => it.key === state.key);
  const next = state.items[Math.max(0, Math.min(state.items.length - 1, i + step))];
  if (next) select(next.key);
}

/* A table changed (the hall's stream): its items may have. The queue is fetched again when
   the table's count of open alerts moved or it has an item on screen — not for every play
   of a busy hall — and at most every REFRESH_MS. */
const REFRESH_MS = 150;
const alerts = new Map();
let due = null, last = 0;

function changed(summary) {
  const moved = alerts.get(summary.table) !== summary.open_alerts;
  alerts.set(summary.table, summary.open_alerts);
  if (!moved && !state.items.some(it => it.table === summary.table)) return;
  if (due) return;
  due = setTimeout(() => { due = null; last = Date.now(); refresh(); }, Math.max(0, last + REFRESH_MS - Date.now()));
}

/* The queue as the server has it now; one fetch at a time, a change meanwhile fetches again. */
async function refresh() {
  if (state.busy) { state.again = true; return; }
  state.busy = true;
  try {
    const r = await fetch(`/api/referee/queue?limit=${PAGE_SIZE}&referee=${encodeURIComponent(ME)}`);
    if (r.ok) {
      const queue = await r.json();
      const keys = new Set(queue.items.map(it => it.key));
      for (const [key, since] of sent) if (!keys.has(key) || Date.now() - since > SENT_MS) sent.delete(key);
      queue.items = queue.items.filter(it => !sent.has(it.key));
      state.queue = queue;
    }
    render();
  } finally {
    state.busy = false;
    if (state.again) { state.again = false; refresh(); }
  }
}

/* --- deciding ---------------------------------------------------------------------------- */

/* On a hall server an act on a camera table goes down to its node (202, "sent"): the item
   stays in the record's queue until the node has stored the act, so it is kept off this
   screen meanwhile (SENT_MS at most: a node that never answers shows it again). */
const SENT_MS = 60000;
const sent = new Map();

async function act(table, kind, body, key) {
  const r = await fetch(`/api/tables/${encodeURIComponent(table)}/referee/${kind}`, {
    method: "POST", headers: {"Content-Type": "application/json", "X-CSRF-Token": CSRF}, body: JSON.stringify(body)});
  const answer = await r.json();
  if (!r.ok) throw new Error(answer.error || r.statusText);
  if ("sent" in answer && key) sent.set(key, Date.now());
  return answer;
}

function why(it) {
  const input = document.querySelector(`#queue > li[data-key="${CSS.escape(it.key)}"] input.why`);
  return input ? input.value.trim() : "";
}

/* Put a play right, then close the item if the correction did not (a camera's note stays
   open after the play it spoke of is corrected). */
async function settle(it, kind, body, note) {
  const answer = await act(it.table, kind, body, it.key);
  if (await stillOpen(it, answer)) {
    await act(it.table, "alert_done", {alert: it.id, action: "ack", why: why(it) || note}, it.key);
  }
}

/* Whether an item is open after an act on it: the table's queue says so once the act is
   stored; an act sent down to a camera table's node (a hall server) is stored there later,
   and the answer says what it will leave open. */
async function stillOpen(it, answer) {
  if ("sent" in answer) return answer.open.includes(it.id);
  const r = await fetch(`/api/referee/queue?table=${encodeURIComponent(it.table)}`);
  return r.ok && (await r.json()).items.some(x => x.key === it.key);
}

async function perform(it, what, data) {
  const error = document.getElementById("act-error");
  error.hidden = true;
  if (what === "pick") return openPicker(it, "correct");
  if (what === "missed") return openPicker(it, "missed");
  if (what === "dismiss" && !why(it)) {
    const input = document.querySelector(`#queue > li[data-key="${CSS.escape(it.key)}"] input.why`);
    input.placeholder = T.reason_needed;
    input.focus();
    return;
  }
  try {
    if (what === "ack" || what === "dismiss") {
      await act(it.table, "alert_done", {alert: it.id, action: what, why: why(it)}, it.key);
    } else if (what === "penalty") {
      await act(it.table, "penalty", {seat: it.penalty.seat, penalty: data.penalty, alert: it.id, why: why(it)}, it.key);
    } else if (what === "alt") {
      const alt = it.alternatives[Number(data.alt)];
      await settle(it, "correction", {target: it.play.seq, cards: alt.cards, why: why(it)}, fill(T.corrected_as, {seq: it.play.seq}));
    } else if (what === "cards") {
      await settle(it, "correction", {target: it.play.seq, cards: data.cards, why: why(it)}, fill(T.corrected_as, {seq: it.play.seq}));
    } else if (what === "put_in") {
      await settle(it, "missed", {seat: it.seat, cards: data.cards, why: why(it),
                                  ...(data.before != null ? {before: data.before} : {})}, T.missed_in);
    }
  } catch (exc) {
    error.textContent = fill(T.act_failed, {why: exc.message});
    error.hidden = false;
    return;
  }
  forget(it);
  refresh();
}

/* --- the card picker --------------------------------------------------------------------- */

function openPicker(it, mode) {
  picker.item = it;
  picker.mode = mode;
  picker.chosen = mode === "correct" ? [...it.play.cards] : [];
  picker.before = mode === "missed" && it.missed_before.length ? it.missed_before[0] : null;
  document.getElementById("picker-title").textContent = mode === "correct"
    ? `${T.table} ${it.name} · ${fill(T.seat_play, {seat: T[it.play.seat]})} ${fill(T.seq_no, {seq: it.play.seq})}`
    : `${T.table} ${it.name} · ${T[it.seat]} · ${T.add_missed}`;
  const rows = [...SUITS.map(s => RANKS.map(r => s + r)), ["SB", "HR"]];
  document.getElementById("deck").innerHTML = rows.map(row => `<div class="deck-row">${row.map(c =>
    `<button type="button" class="pick" data-card="${c}">${cardImg(c)}<span class="n"></span></button>`).join("")}</div>`).join("");
  document.getElementById("picker-before").innerHTML = mode === "missed"
    ? [...it.missed_before.map(seq => [seq, fill(T.put_before, {seq})]), [null, T.at_end]].map(([seq, label]) =>
      `<label><input type="radio" name="before" value="${seq ?? ""}" ${seq === picker.before ? "checked" : ""}> ${label}</label>`).join(" ") : "";
  drawChosen();
  document.getElementById("picker").showModal();
}

function drawChosen() {
  document.getElementById("chosen").innerHTML = picker.chosen.map((c, i) =>
    `<button type="button" class="chosen" data-at="${i}">${cardImg(c)}</button>`).join("") || `<span class="pass">${T.PASS}</span>`;
  for (const b of document.querySelectorAll("#deck .pick")) {
    const n = picker.chosen.filter(c => c === b.dataset.card).length;
    b.classList.toggle("on", n > 0);
    b.querySelector(".n").textContent = n ? `×${n}` : "";
  }
}

function setUpPicker() {
  const dialog = document.getElementById("picker");
  document.getElementById("deck").addEventListener("click", ev => {
    const b = ev.target.closest(".pick");
    if (!b) return;
    if (picker.chosen.filter(c => c === b.dataset.card).length < 2) picker.chosen.push(b.dataset.card);
    drawChosen();
  });
  document.getElementById("chosen").addEventListener("click", ev => {
    const b = ev.target.closest(".chosen");
    if (b) { picker.chosen.splice(Number(b.dataset.at), 1); drawChosen(); }
  });
  document.getElementById("picker-before").addEventListener("change", ev => {
    picker.before = ev.target.value === "" ? null : Number(ev.target.value);
  });
  document.getElementById("picker-clear").onclick = () => { picker.chosen = []; drawChosen(); };
  document.getElementById("picker-cancel").onclick = () => dialog.close();
  document.getElementById("picker-apply").onclick = () => {
    dialog.close();
    const it = picker.item;
    if (picker.mode === "correct") perform(it, "cards", {cards: picker.chosen});
    else perform(it, "put_in", {cards: picker.chosen, before: picker.before});
  };
}

/* --- keys -------------------------------------------------------------------------------- */

function onKey(ev) {
  if (document.getElementById("picker").open || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const typing = ev.target.matches("input, select, textarea");
  if (typing && ev.key !== "Escape") return;
  const it = current();
  const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
  if (key === "Escape") { ev.target.blur?.(); return; }
  if (key === "j" || key === "ArrowDown") move(1);
  else if (key === "k" || key === "ArrowUp") move(-1);
  else if (!it) return;
  else if (it.kind === "result") {  /* a result is confirmed, nothing else */
    if (key !== "Enter") return;
    confirmResult(it);
  } else if (key === "Enter") {
    if (it.kind === "ruling") {
      if (it.penalty) perform(it, "penalty", {penalty: it.penalty.proposed});
      else return;
    } else perform(it, "ack");
  } else if (/^Digit[1-9]$/.test(ev.code) && ev.shiftKey) {  /* ⇧1…: the penalties other than the proposed */
    const others = it.penalty ? PENALTIES.filter(p => p !== it.penalty.proposed) : [];
    const n = Number(ev.code.slice(5)) - 1;
    if (n >= others.length) return;
    perform(it, "penalty", {penalty: others[n]});
  } else if (/^[1-9]$/.test(key)) {
    const n = Number(key) - 1;
    if (n >= it.alternatives.length) return;
    perform(it, "alt", {alt: n});
  } else if (key === "c") {
    if (it.codes.includes("zone_covered")) openPicker(it, "missed");
    else if (it.play && it.kind !== "notice") openPicker(it, "correct");
    else return;
  } else if (key === "a" && it.kind === "ruling") perform(it, "ack");
  else if (key === "d") perform(it, "dismiss");
  else return;
  ev.preventDefault();
}

function setUpAssign() {
  document.getElementById("assign-form").addEventListener("submit", async ev => {
    ev.preventDefault();
    const form = ev.target;
    const tables = form.tables.value.split(/[\s,，、]+/).filter(Boolean);
    const r = await fetch("/api/referee/assignments", {method: "PUT",
      headers: {"Content-Type": "application/json", "X-CSRF-Token": CSRF},
      body: JSON.stringify({referee: form.referee.value.trim(), tables})});
    const error = document.getElementById("act-error");
    error.hidden = r.ok;
    if (!r.ok) error.textContent = fill(T.act_failed, {why: (await r.json()).error});
    refresh();
  });
}

document.addEventListener("keydown", onKey);
document.addEventListener("DOMContentLoaded", () => {
  render();
  setUpPicker();
  setUpAssign();
  document.getElementById("tool-table")?.addEventListener("change", ev => aimTools(ev.target.value));
  /* every table's change comes over the hall's stream: the queue is fetched again */
  stream("/api/hall/stream", null, {
    hall: tables => { for (const t of tables) alerts.set(t.table, t.open_alerts); refresh(); },
    table: changed});
});
