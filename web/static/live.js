/* Live pages: a Server-Sent Events stream of snapshots, rendered into the hall, the table
   page and the OBS overlay. T holds the words of the page's language, LANG its code. */
"use strict";

const SEATS = ["E", "S", "W", "N"];

function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
}

/* EventSource reconnects by itself and sends Last-Event-ID; the server answers every
   (re)connect with a full snapshot, so a page never shows half a state. */
function stream(url, onSnapshot, handlers) {
  const es = new EventSource(url);
  if (onSnapshot) {
    es.addEventListener("snapshot", e => onSnapshot(JSON.parse(e.data)));
    es.addEventListener("update", e => onSnapshot(JSON.parse(e.data).snapshot));
  }
  for (const [name, fn] of Object.entries(handlers || {})) es.addEventListener(name, e => fn(JSON.parse(e.data)));
  return es;
}

function levelName(level) { return level === "T" ? "10" : level; }
/* a play's rank as players say it: 10 for T, the jokers by name */
function rankName(rank) { return rank === "R" || rank === "B" ? T[`rank.${rank}`] : levelName(rank); }

function cardImg(card, cls) {
  return `<img class="card ${cls || ""}" src="/cards/${esc(card)}.svg" alt="${esc(card)}" title="${esc(card)}">`;
}

function playName(play) {
  if (!play) return T.PASS;
  const [type, rank, cards] = play;
  if (rank === "JOKER") return T.JokerBomb;
  const name = type === "Bomb" ? `${cards.length}${LANG === "zh" ? "张" : "-card "}${T.Bomb}` : T[type];
  return `${name} ${rankName(rank)}`;
}

/* A countdown element carries data-since (epoch seconds the action began) and data-limit. */
function clockText(seconds) {
  const over = seconds < 0, s = Math.abs(over ? Math.floor(seconds) : Math.ceil(seconds));
  return `${over ? "-" : ""}${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function tickClock(el, delay) {
  const since = parseFloat(el.dataset.since), limit = parseFloat(el.dataset.limit || "0");
  if (!since) { el.textContent = ""; return; }
  const elapsed = Date.now() / 1000 - since - (delay || 0);
  const left = limit ? limit - elapsed : elapsed;
  el.textContent = clockText(left);
  el.classList.toggle("over", !!limit && left < 0);
  el.classList.toggle("low", !!limit && left >= 0 && left <= 5);
}

function clockSpan(hand) {
  if (!hand || !hand.since || hand.phase === "over") return "";
  return `<span class="clock" data-since="${hand.since}" data-limit="${hand.limit || 0}"></span>`;
}

function seatName(snap, seat) {
  const player = (snap.players || {})[seat];
  return player ? `${T[seat]} · ${esc(player)}` : T[seat];
}

/* a tournament table: the pair the hall's draw seats at this seat (null elsewhere) */
function seatedPair(snap, seat) {
  return snap.seating?.pairs?.[seat === "N" || seat === "S" ? "NS" : "EW"] || null;
}

/* a tournament table's two pairs as the hall's draw seats them (its seating's pairs) */
function pairsHTML(pairs) {
  const pair = side => `${T[side]} <b>${esc(pairs[side].name)}</b> <span class="muted">${esc(pairs[side].id)}</span>`;
  return `${pair("NS")} · ${pair("EW")}`;
}

/* --- hall ------------------------------------------------------------------------------ */

function hallCard(s) {
  const pairs = s.pairs ? `<p class="hall-pairs">${pairsHTML(s.pairs)}</p>` : "";
  if (!s.ready) return `<article class="hall-card"><h2>${esc(s.table)}</h2>${pairs}<p class="muted">${T.waiting}</p></article>`;
  const cards = SEATS.map(seat => `<span class="${(s.to_act || []).includes(seat) ? "to-act" : ""}">${T[seat]} ${s.cards?.[seat] ?? "–"}</span>`).join("");
  const turn = (s.to_act || []).length && !s.result
    ? `${T.turn} ${(s.to_act || []).map(x => T[x]).join(" ")} <span class="clock" data-since="${s.since || ""}" data-limit="${s.limit || 0}"></span>` : "";
  const result = s.result ? `<p class="result">${s.result.winner ? T.winner.replace("{side}", T[s.result.winner]) : T.draw}</p>` : "";
  const alerts = s.open_alerts ? `<span class="badge">${s.open_alerts} ${T.alerts}</span>` : "";
  return `<article class="hall-card"><h2><a href="/table/${encodeURIComponent(s.table)}?lang=${LANG}">${T.table} ${esc(s.name || s.table)}</a> ${alerts}</h2>
    ${pairs}<p class="levels">${T.EW} <b>${levelName(s.levels.EW)}</b> · ${T.NS} <b>${levelName(s.levels.NS)}</b>${s.level ? ` · ${T.level_now} ${levelName(s.level)}` : ""}</p>
    <p class="cards-left">${cards}</p><p class="turn">${turn}</p>${result}</article>`;
}

/* --- table page ----------------------------------------------------------------------- */

/* A tournament table's seating as its hall sent it: the round, the pairs, and the result
   the players confirm with their seat buttons (待确认 until a player of each side pressed). */
function seatingHTML(st) {
  if (!st) return "";
  const head = T.seating.replace("{event}", esc(st.event)).replace("{round}", st.round)
    .replace("{rounds}", st.rounds).replace("{table}", st.table);
  let result = "";
  if (st.result) {
    const r = st.result, levels = Object.keys(r.levels).length
      ? `${T.NS} ${levelName(r.levels.NS)} : ${T.EW} ${levelName(r.levels.EW)}`
      : (r.winner ? T.winner.replace("{side}", T[r.winner]) : T.draw);
    const pressed = Object.keys(st.pressed || {});
    const ask = st.state === "provisional" ? ` · ${T.press_to_confirm}` +
      (pressed.length ? ` · ${T.pressed.replace("{sides}", pressed.map(x => T[x]).join(" "))}` : "") : "";
    result = `<p class="seating-result state-${st.state}" data-entry="${r.entry}">${T["state." + st.state]}${LANG === "zh" ? "：" : ": "}${levels}${ask}</p>`;
  }
  return `<p class="seating-head">${head}</p><p class="seating-pairs">${pairsHTML(st.pairs)}</p>${result}`;
}

function renderTable(s) {
  const hand = s.hand;
  document.getElementById("seating").innerHTML = seatingHTML(s.seating);
  document.getElementById("scoreboard").innerHTML = s.ready ? `
    <div><span class="label">${T.EW}</span> <b class="level">${levelName(s.levels.EW)}</b></div>
    <div><span class="label">${T.NS}</span> <b class="level">${levelName(s.levels.NS)}</b></div>
    <div><span class="label">${hand ? T.hand.replace("{n}", hand.number) : T.waiting}</span>
      ${hand ? `${T.level_now} <b>${levelName(hand.level)}</b>` : ""}</div>
    ${s.result ? "" : `<div><span class="label">${T.match_clock}</span> <span class="clock" data-since="${s.started}" data-limit="0"></span> / ${s.match_minutes}′</div>`}
    ${s.result ? `<div class="result">${esc((s.result_text[LANG] || [])[0] || "")}</div>` : ""}
    ${s.error ? `<div class="error">${T.record_error}: ${esc(s.error_text[LANG])}</div>` : ""}` : `<div>${T.waiting}</div>`;
  for (const seat of SEATS) {
    const el = document.getElementById(`seat-${seat}`), info = hand?.seats?.[seat];
    const acting = hand && hand.to_act.includes(seat) && !s.result;
    el.className = `seat seat-${seat}${acting ? " acting" : ""}`;
    const pair = seatedPair(s, seat);
    el.innerHTML = `<div class="seat-name">${seatName(s, seat)}</div>
      ${pair ? `<div class="seat-pair">${esc(pair.name)}</div>` : ""}
      <div class="seat-cards"><b>${info ? info.cards : "–"}</b> ${T.cards_left}
        ${info?.report ? `<span class="tag report${info.report_due ? " due" : ""}">${T.report}</span>` : ""}
        ${info?.place ? `<span class="tag place">${T["place" + info.place]}</span>` : ""}</div>
      ${acting ? `<div class="seat-turn">${T["action." + hand.action] || ""} ${clockSpan(hand)}</div>` : ""}`;
  }
  const trick = hand?.trick || [];
  document.getElementById("trick").innerHTML = trick.length ? `<h3>${hand.trick_is_last ? T.last_trick : T.trick}</h3>` +
    trick.map(t => `<div class="play ${hand.top && hand.top.seat === t.seat && t.play && JSON.stringify(hand.top.play) === JSON.stringify(t.play) ? "top" : ""}">
      <span class="who">${T[t.seat]}</span>
      ${t.cards.length ? `<a href="#" class="cards" data-seq="${t.seq}">${t.cards.map(c => cardImg(c)).join("")}</a>` : ""}
      <span class="what">${t.cards.length ? (t.play ? playName(t.play) : "?") : T.PASS}</span></div>`).join("") : "";
  document.getElementById("tribute").innerHTML = hand && (hand.tribute.length || hand.resisted) ? `<h2>${T.tribute}</h2>` +
    (hand.resisted ? `<p>${T.resist}</p>` : "") +
    hand.tribute.map(x => `<p>${T[x.from]} → ${x.to ? T[x.to] : "?"} ${cardImg(x.card, "small")}</p>`).join("") +
    hand.returns.map(x => `<p>${T.return}: ${T[x.from]} → ${T[x.to]} ${cardImg(x.card, "small")}</p>`).join("") : "";
  document.getElementById("tracker").innerHTML = hand ? trackerHTML(hand.tracker) : "";
  document.getElementById("winchance").innerHTML = winChanceHTML(s.chance);
  document.getElementById("alerts").innerHTML = (s.alerts || []).slice().reverse().map(a => `
    <li class="alert ${a.status}"><a href="#" data-seq="${a.frame ? a.seq : ""}">#${a.seq}</a>
      ${a.seat ? T[a.seat] : ""} ${esc(a[LANG])} <span class="tag">${T["status." + a.status]}</span></li>`).join("") || `<li class="muted">${T.no_alerts}</li>`;
  document.getElementById("log").innerHTML = (s.log || []).slice().reverse().map(l => `
    <li data-seq="${l.seq}"><span class="seq">#${l.seq}</span> ${l[LANG].map(esc).join("<br>")}</li>`).join("");
  document.querySelectorAll("[data-seq]").forEach(el => el.onclick = ev => {
    const seq = el.dataset.seq;
    if (!seq) return;
    ev.preventDefault();
    const dialog = document.getElementById("frame"), img = dialog.querySelector("img");
    img.src = `/api/tables/${encodeURIComponent(s.table)}/frames/${seq}.jpg`;
    img.onerror = () => { img.alt = T.no_frame; };
    dialog.showModal();
  });
  document.querySelectorAll("[data-since]").forEach(el => tickClock(el));
}

function trackerHTML(t) {
  return `<div class="tracker"><h2>${T.tracker}</h2>
    <span>${T.big_jokers} <b>${t.big_jokers}</b></span><span>${T.small_jokers} <b>${t.small_jokers}</b></span>
    <span>${T.level_cards} <b>${t.level_cards}</b></span><span>${T.wildcards} <b>${t.wildcards}</b></span>
    <span>${T.unseen} <b>${t.unseen}</b></span></div>`;
}

/* --- win chance (胜率) ------------------------------------------------------------------ */

/* The hand's win chance (snapshot.chance, engine/win_chance.py): 东西 vs 南北 in percent on a
   bar; the last play's swing for the side of the seat that made it (▲ it gained, ▼ it lost,
   in points); the favoured side's chance of each upgrade (双下 +3 …). */
function winChanceHTML(c) {
  if (!c) return "";
  const ew = Math.round(c.win.EW * 100), ns = 100 - ew;
  let swing = "";
  if (c.swing) {
    const side = "EW".includes(c.swing.seat) ? "EW" : "NS", pts = Math.round(c.swing[side] * 100);
    const dir = pts > 0 ? "up" : pts < 0 ? "down" : "flat";
    swing = `<span class="wc-swing ${dir}" data-seat="${c.swing.seat}" data-points="${pts}">${T[c.swing.seat]}
      ${pts > 0 ? "▲" : pts < 0 ? "▼" : "±"}${Math.abs(pts)}</span>`;
  }
  const fav = c.win.EW >= c.win.NS ? "EW" : "NS";
  const levels = Object.entries(c.levels[fav]).sort((a, b) => b[0] - a[0])
    .map(([n, p]) => `<span data-up="${n}">${T.wc_up.replace("{n}", n)} ${Math.round(p * 100)}%</span>`).join(" · ");
  return `<div class="wc-head"><span class="wc-title">${T.win_chance}</span>${swing}</div>
    <div class="wc-row"><span><span class="wc-side">${T.EW}</span> <b class="wc-pct wc-EW">${ew}%</b></span>
      <span><b class="wc-pct wc-NS">${ns}%</b> <span class="wc-side">${T.NS}</span></span></div>
    <div class="wc-bar"><i style="transform: scaleX(${ew / 100})"></i></div>
    <div class="wc-levels" data-side="${fav}">${T[fav]}${LANG === "zh" ? "：" : ": "}${levels}</div>`;
}

/* --- overlay --------------------------------------------------------------------------- */

function renderOverlay(s) {
  const hand = s.hand;
  const bar = document.getElementById("bar");
  bar.innerHTML = s.ready ? `<span class="side-name">${T.EW}</span><b class="lv">${levelName(s.levels.EW)}</b>
    <span class="mid">${hand ? `${T.hand.replace("{n}", hand.number)} · ${T.level_now} <b>${levelName(hand.level)}</b>` : T.waiting}</span>
    <b class="lv">${levelName(s.levels.NS)}</b><span class="side-name">${T.NS}</span>` : "";
  const last = {};
  for (const t of hand?.trick || []) last[t.seat] = t;
  for (const seat of SEATS) {
    const el = document.getElementById(`o-${seat}`), info = hand?.seats?.[seat];
    const acting = hand && hand.to_act.includes(seat) && !s.result;
    el.classList.toggle("acting", !!acting);
    const play = last[seat];
    el.innerHTML = `<div class="o-head"><span class="o-name">${seatName(s, seat)}</span>
        <span class="o-count${info && info.report ? " low" : ""}">${info ? info.cards : ""}</span>
        ${info?.place ? `<span class="o-place">${T["place" + info.place]}</span>` : ""}
        ${acting ? clockSpan(hand) : ""}</div>
      <div class="o-play">${play ? (play.cards.length ? play.cards.map(c => cardImg(c)).join("") : `<span class="o-pass">${T.PASS}</span>`) : ""}</div>`;
  }
  document.getElementById("o-tracker").innerHTML = hand ? trackerHTML(hand.tracker) : "";
  const wc = document.getElementById("o-winchance");
  wc.hidden = !s.chance;
  wc.innerHTML = winChanceHTML(s.chance);
}
