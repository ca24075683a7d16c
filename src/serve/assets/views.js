// The side panels drawn from the server's answers: the move path, the next-move table, the
// game list and the game viewer. Each function fills its part of the page and wires its clicks
// to the handlers it is given; none keeps state.
"use strict";
window.KX = window.KX || {};

(function () {
  const $ = (id) => document.getElementById(id);

  function esc(text) {
    return String(text == null ? "" : text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  }

  // A player's name and title as HTML, each isolated from the text around it: a name that
  // holds a right-to-left mark or an unclosed direction override turns only itself around,
  // never the other player's name beside it. "?" when there is neither.
  function playerHtml(name, title) {
    const parts = [name, title].filter(Boolean).map((part) => `<bdi>${esc(part)}</bdi>`);
    return parts.join(" ") || "?";
  }

  // The move in the chosen notation, and in the other one.
  function notations(m, notation) {
    // A yari shogi move has no Japanese notation (the text is empty): Western stands in.
    return notation === "western" ? [m.western, m.japanese] : [m.japanese || m.western, m.japanese ? m.western : ""];
  }

  function percent(x) {
    return x == null ? "" : `${(100 * x).toFixed(1)}%`;
  }

  // The move path: the start, then each move; a click goes back to that ply.
  function path(moves, notation, L, onPly) {
    const items = [`<li class="${moves.length === 0 ? "current" : ""}"><button type="button" data-ply="0">${esc(L.start)}</button></li>`];
    moves.forEach((m, i) => {
      const text = notation === "western" ? m.western : m.japanese || m.western;
      const num = notation === "western" ? `<span class="num">${i + 1}.</span>` : "";
      items.push(`<li class="${i === moves.length - 1 ? "current" : ""}"><button type="button" data-ply="${i + 1}" data-usi="${esc(m.usi)}">${num}${esc(text)}</button></li>`);
    });
    const host = $("path");
    host.innerHTML = items.join("");
    host.onclick = (e) => {
      const b = e.target.closest("[data-ply]");
      if (b) onPly(Number(b.dataset.ply));
    };
  }

  // Rows that a click opens are reached by Tab too, and opened by Enter or Space. The view a
  // key opened takes the focus (see `focusAfterKeys`), where a click leaves it: else it falls
  // back to the top of the page, a dozen Tabs away.
  let keyed = null;
  function byKeys(body, open) {
    body.onkeydown = (e) => {
      const row = e.target.closest("tr[tabindex]");
      if (!row || (e.key !== "Enter" && e.key !== " ")) return;
      e.preventDefault();
      open(row);
      keyed = body.id;
    };
  }

  // Focuses `target` when the view just drawn was opened by a key on a row of `from`.
  function focusAfterKeys(from, target) {
    if (keyed !== from) return;
    keyed = null;
    if (target) target.focus();
  }

  function bar(m, L) {
    const total = m.black_wins + m.draws + m.white_wins;
    if (total === 0) return `<div class="bar" title="${esc(L.results)}"></div>`;
    const seg = (cls, n, name) => {
      if (n === 0) return "";
      const p = (100 * n) / total;
      return `<span class="${cls}" style="width:${p}%" title="${esc(name)}: ${n}">${p >= 14 ? Math.round(p) + "%" : ""}</span>`;
    };
    return `<div class="bar">${seg("b", m.black_wins, L.resultNames.black)}${seg("d", m.draws, L.resultNames.draw)}${seg("w", m.white_wins, L.resultNames.white)}</div>`;
  }

  // The next-move table, most played first (as the server sorts it).
  function nextMoves(answer, notation, L, onMove) {
    const rows = answer.moves.map((m) => {
      const [main, alt] = notations(m, notation);
      return `<tr data-usi="${esc(m.usi)}" tabindex="0"><td><span class="mv-main">${esc(main)}</span><span class="mv-alt">${esc(alt)}</span></td>` +
        `<td class="num played">${m.played.toLocaleString()}</td><td class="num reached">${m.reached.toLocaleString()}</td>` +
        `<td>${bar(m, L)}</td><td class="num">${percent(m.score)}</td></tr>`;
    });
    $("moves").innerHTML = rows.join("");
    $("moves-table").hidden = rows.length === 0;
    $("moves-empty").hidden = rows.length !== 0;
    $("moves-empty").textContent = L.noMoves;
    $("moves").onclick = (e) => {
      const tr = e.target.closest("[data-usi]");
      if (tr) onMove(tr.dataset.usi);
    };
    byKeys($("moves"), (tr) => onMove(tr.dataset.usi));
    // A move played by a key: the next moves' first row, or the way back when there is none.
    focusAfterKeys("moves", $("moves").querySelector("tr[tabindex]") || $("path-back"));
    const p = answer.position;
    $("summary").textContent = p.games > 0 ? L.gamesReach(p.games) + L.occurrences(p.occurrences) : L.noGames;
  }

  // The game list, with the pager.
  function gameList(answer, offset, limit, L, onGame, onPage) {
    const rows = answer.games.map((g) => `<tr data-game="${g.id}" data-ply="${g.ply}" tabindex="0">` +
      `<td title="${esc(g.date || "")}">${esc((g.date || "").slice(0, 10))}</td><td class="ellipsis" title="${esc(g.event || "")}">${esc(g.event || "")}</td>` +
      `<td class="ellipsis" title="${esc(g.black || "")}">${esc(g.black || "")}</td><td class="ellipsis" title="${esc(g.white || "")}">${esc(g.white || "")}</td>` +
      `<td>${esc(L.resultNames[g.result] || g.result)}</td><td class="num">${g.ply}</td></tr>`);
    $("games").innerHTML = rows.join("");
    $("games-table").hidden = rows.length === 0;
    $("games-empty").hidden = rows.length !== 0;
    const total = answer.position.games;
    // A page past the end (a stale link, a database rebuilt since): say so, and go back to
    // the last page.
    const past = total > 0 && offset >= total;
    $("games-empty").textContent = past ? L.pastEnd(total) : L.noGames;
    $("games").onclick = (e) => {
      const tr = e.target.closest("[data-game]");
      if (tr) onGame(Number(tr.dataset.game), Number(tr.dataset.ply));
    };
    byKeys($("games"), (tr) => onGame(Number(tr.dataset.game), Number(tr.dataset.ply)));
    // No game at all: no page to go to, whatever page a link named.
    $("pager").hidden = total === 0 || (total <= limit && offset === 0);
    $("page-text").textContent = total === 0 || past ? "" : L.page(offset + 1, offset + answer.games.length, total);
    $("page-prev").textContent = `‹ ${L.prev}`;
    $("page-next").textContent = `${L.next} ›`;
    $("page-prev").disabled = offset === 0;
    $("page-next").disabled = offset + limit >= total;
    $("page-prev").onclick = () => onPage(past ? Math.floor((total - 1) / limit) * limit : Math.max(0, offset - limit));
    $("page-next").onclick = () => onPage(offset + limit);
  }

  function clock(seconds) {
    if (seconds == null) return "";
    const m = Math.floor(seconds / 60), s = seconds % 60;
    return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, "0")}:${String(s).padStart(2, "0")}` : `${m}:${String(s).padStart(2, "0")}`;
  }

  // The game viewer's panel: title, information, the move list and the downloads. Drawn once
  // a game (and notation and language): a step only calls `viewerAt`, which a list of
  // hundreds of moves drawn again on every step would make slow.
  function viewer(game, notation, L, onPly) {
    $("game-title").innerHTML = `☗${playerHtml(game.black, game.black_title)}　☖${playerHtml(game.white, game.white_title)}`;
    // Each name isolated (U+2068 … U+2069), as the page shows it: a name written right to left
    // must not reorder what follows it in a tooltip or the window's title.
    const named = (name, title) => `\u2068${[name, title].filter(Boolean).join(" ") || "?"}\u2069`;
    $("game-title").title = `☗${named(game.black, game.black_title)}　☖${named(game.white, game.white_title)}`;
    const info = [
      [L.event, game.event], [L.date, game.date], [L.site, game.site], [L.timeControl, game.time_control],
      [L.handicap, game.handicap && game.handicap !== "平手" ? game.handicap : null], [L.opening, game.opening],
      [L.result, `${L.resultNames[game.result] || game.result}${game.termination ? ` (${L.terminationNames[game.termination] || game.termination})` : ""}`],
    ].filter(([, v]) => v);
    $("game-info").innerHTML = info.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join("");
    const items = game.plies.map((p) => {
      const text = notation === "western" ? p.western : p.japanese || p.western;
      // The last move is marked for the foul and the ending's comment too, shown with it.
      const noted = p.comment || (p.ply === game.plies.length && (game.foul || game.ending_comment));
      return `<li data-ply="${p.ply}"><span class="n">${p.ply}</span>` +
        `<span class="m${noted ? " has-comment" : ""}">${esc(text)}</span><span class="t">${clock(p.time)}</span></li>`;
    });
    const list = $("game-moves");
    list.innerHTML = items.join("");
    // A game opened by a key: the step forward, where the keys go on.
    focusAfterKeys("games", $("step-next"));
    list.onclick = (e) => {
      const li = e.target.closest("[data-ply]");
      if (li) onPly(Number(li.dataset.ply));
    };
    // Only the formats that can hold the game (a yari shogi game: USI and PSN).
    for (const ext of ["kif", "ki2", "csa", "jkf", "usi", "psn"]) {
      const link = $(`dl-${ext}`);
      link.hidden = !(game.formats || []).includes(ext);
      link.href = `/api/game/${game.id}.${ext}${game.filters || ""}`;
      // What the format cannot hold of this game, as `kifudex show` says it.
      const lost = (game.left_out || {})[ext] || [];
      link.title = lost.join("\n");
      link.classList.toggle("lossy", lost.some((said) => !said.startsWith("note: ")));
    }
  }

  // The viewer at `ply`: its move marked and scrolled to, its time and comment, the count.
  function viewerAt(game, ply, L) {
    const list = $("game-moves");
    for (const li of list.querySelectorAll(".current")) li.classList.remove("current");
    const current = ply > 0 ? list.children[ply - 1] : null;
    if (current) current.classList.add("current");
    if (current) {
      const top = current.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 24) list.scrollTop = top - list.clientHeight / 2;
    } else {
      list.scrollTop = 0;
    }
    const comment = ply === 0 ? game.comment : (game.plies[ply - 1] || {}).comment;
    const time = ply > 0 ? clock((game.plies[ply - 1] || {}).time) : "";
    // After the last move, the foul the record wrote after it (an illegal move, which ended
    // the game) and the record's time and comments for its ending too.
    const last = ply === game.plies.length;
    const foul = last && game.foul ? [`${L.foul}: ${game.foul}`, clock(game.foul_time) && `${L.time}: ${clock(game.foul_time)}`, game.foul_comment] : [];
    const endTime = last ? clock(game.ending_time) : "";
    const endComment = last ? game.ending_comment : null;
    const lines = [
      time ? `${L.time}: ${time}` : "", comment || "", ...foul,
      endTime ? `${L.ending} ${L.time}: ${endTime}` : "", endComment || "",
    ].filter(Boolean);
    const box = $("game-comment");
    box.hidden = lines.length === 0;
    box.textContent = lines.join("\n");
    $("ply-label").textContent = ply === 0 ? `${L.startLabel} / ${game.plies.length}` : L.plyOf(ply, game.plies.length);
  }

  KX.views = { path, nextMoves, gameList, viewer, viewerAt, esc, playerHtml };
})();
