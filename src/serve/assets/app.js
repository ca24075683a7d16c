// The page's state and its URL. The URL holds the whole state (position, filters, list page,
// game and ply, language, notation): every change pushes a new URL and redraws from it, so
// back and forward work and a copied link opens the same view; a step within a game replaces
// the URL instead. Parameters use the API's names.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  // What shows a position: faded while it is not the one the URL asks for.
  const STALE_PARTS = ["board", "path", "black-hand", "white-hand"];
  const FILTERS = ["player", "black", "white", "event", "since", "until", "result", "handicap"];
  const LIMIT = 20;
  const STARTPOS = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
  // How long the page waits before asking again when the server cannot answer for now (a
  // database removed or being rebuilt: 503).
  const RETRY_MS = 3000;

  let state = null;      // what the URL says
  let position = null;   // the last /api/position answer for the explorer
  let game = null;       // the last /api/game answer
  let drawn = null;      // the game, notation and language the viewer's move list is drawn for
  let selection = null;  // {from: "7g"} or {drop: "P"} while a move is being made
  let pendingPromotion = null;
  let generation = 0;    // drops answers to requests made before the latest navigation
  let shown = -1;        // the generation whose position the board and `position` show
  let backs = 0;         // presses of ← made while the explorer's position was loading

  function browserLang() {
    return (navigator.language || "ja").toLowerCase().startsWith("ja") ? "ja" : "en";
  }

  function labels() { return KX.LABELS[state.lang] || KX.LABELS.ja; }

  // The state a URL describes.
  function readUrl() {
    const q = new URLSearchParams(location.search);
    const s = {
      moves: (q.get("moves") || "").trim(),
      sfen: q.get("sfen") || "",
      start: q.get("start") || "",
      filters: {},
      offset: count(q.get("offset")),
      // As typed: what is wrong with an id that is not one is said in the user's words.
      game: q.get("game") || null,
      ply: count(q.get("ply")),
      lang: q.get("lang") === "en" || q.get("lang") === "ja" ? q.get("lang") : browserLang(),
      notation: q.get("notation") === "western" ? "western" : "japanese",
    };
    for (const f of FILTERS) if (q.get(f)) s.filters[f] = q.get(f);
    return s;
  }

  // A count from the URL: its digits, else 0 (`1.5`, `-3`, `abc`, `1e2` are no count).
  function count(text) {
    return /^[0-9]{1,9}$/.test(text || "") ? Number(text) : 0;
  }

  // The URL of a state: only what differs from the defaults. An SFEN with moves or a start
  // (a link edited by hand) is kept as it is, for the API to refuse.
  function url(s) {
    const q = new URLSearchParams();
    if (s.sfen) q.set("sfen", s.sfen);
    if (s.start && s.start !== "startpos" && s.start !== "even") q.set("start", s.start);
    if (s.moves) q.set("moves", s.moves);
    setFilters(q, s);
    if (s.offset) q.set("offset", String(s.offset));
    if (s.game != null) { q.set("game", String(s.game)); q.set("ply", String(s.ply)); }
    // Always: a copied link opens in the same language in a browser of another.
    q.set("lang", s.lang);
    if (s.notation === "western") q.set("notation", "western");
    const text = q.toString();
    return text ? `/?${text}` : "/";
  }

  // The API parameters of the explorer's position and filters. An SFEN goes with the moves
  // and start the link names too: the API refuses them together, and the page says why
  // rather than show the SFEN's position as if the moves were not there.
  function apiParams(s, extra) {
    const q = new URLSearchParams();
    if (s.sfen) q.set("sfen", s.sfen);
    if (s.moves) q.set("moves", s.moves);
    if (s.start && !(s.sfen && (s.start === "startpos" || s.start === "even"))) q.set("start", s.start);
    setFilters(q, s);
    for (const [k, v] of Object.entries(extra || {})) q.set(k, v);
    return q.toString();
  }

  function setFilters(q, s) {
    for (const f of FILTERS) if (s.filters[f]) q.set(f, s.filters[f]);
  }

  // The filters alone: a game opened from the list is shown with the record the list shows
  // (a game found in several files has one from each).
  function filterParams(s) {
    const q = new URLSearchParams();
    setFilters(q, s);
    const text = q.toString();
    return text ? `?${text}` : "";
  }

  async function fetchJson(path, options) {
    // No answer at all (the server stopped, the network gone): said so, and asked again.
    const response = await fetch(path, options).catch(() => {
      throw Object.assign(new Error(labels().unreachable), { status: 0 });
    });
    const body = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
    if (!response.ok) throw Object.assign(new Error(body.error || `HTTP ${response.status}`), { status: response.status });
    return body;
  }

  // The server words a refusal as the command line does (`--since '2019-13' is not a date`);
  // the page names a filter by the label of its field in the form instead. What the message
  // quotes (`'...'`, the text given) is left as it is.
  const FORM_FIELDS = ["player", "black", "white", "event", "since", "until", "result", "handicap"];
  function inFormWords(message) {
    const l = labels();
    return message.replace(/('[^']*')|--([a-z]+)\b/g, (written, quoted, name) =>
      (!quoted && FORM_FIELDS.includes(name) ? l[name] : written));
  }

  function showError(message) {
    $("error").hidden = !message;
    $("error").textContent = message ? inFormWords(message) : "";
  }

  // Moves to a new state: a new history entry (or a replaced one), then a redraw.
  function go(next, replace) {
    backs = 0;
    selection = null;
    closePromotion();
    const target = url(next);
    if (replace) history.replaceState(null, "", target);
    else if (target !== location.pathname + location.search) history.pushState(null, "", target);
    return load();
  }

  function copy(s) { return JSON.parse(JSON.stringify(s)); }

  // The state the explorer's controls change: the URL's, with no game. A game link that
  // could not be opened leaves its error over the explorer, whose controls then leave it.
  function explorerCopy() {
    const n = copy(state);
    n.game = null;
    n.ply = 0;
    return n;
  }

  // Closes the question whether to promote, unanswered.
  function closePromotion() {
    pendingPromotion = null;
    $("promotion").hidden = true;
  }

  // Says when an index run is writing the database or did not finish: the answers then
  // cover only part of the files.
  async function loadNotice() {
    const status = await fetchJson("/api/status").catch(() => ({ warning: null }));
    $("notice").hidden = !status.warning;
    $("notice").textContent = status.warning || "";
  }

  async function load() {
    state = readUrl();
    const mine = ++generation;
    document.body.dataset.state = "loading";
    applyLabels();
    try {
      // A link whose query string is no UTF-8 text is refused, as the API refuses it: read,
      // it would filter on U+FFFD and find nothing, saying nothing.
      if (!decodable(location.search)) throw new Error(labels().badLink);
      const notice = loadNotice();
      if (state.game != null) await loadGame(mine);
      else await loadExplorer(mine);
      await notice;
      if (mine === generation) showError(null);
    } catch (e) {
      if (mine === generation) {
        backs = 0;
        drawShell();
        // A 503 passes once the database is back, and no answer once the server is: the page
        // then recovers by itself.
        const retry = e.status === 503 || e.status === 0;
        showError(retry ? `${e.message.replace(/\.$/, "")}. ${labels().retrying}` : e.message);
        if (e.offer) offerHandicapStart(labels());
        if (retry) setTimeout(() => { if (mine === generation) load(); }, RETRY_MS);
      }
    } finally {
      if (mine === generation) {
        document.body.dataset.state = "ready";
        // How long the first view took to draw, for the page benchmark.
        if (!document.body.dataset.firstReady) document.body.dataset.firstReady = String(Math.round(performance.now()));
      }
    }
  }

  function decodable(search) {
    try {
      decodeURIComponent(search.replace(/\+/g, " "));
      return true;
    } catch (e) {
      return false;
    }
  }

  // Clears the answer of the view before, which no longer answers what the URL asks.
  function clearAnswer() {
    $("moves").innerHTML = $("games").innerHTML = $("summary").textContent = "";
    $("moves-empty").hidden = $("games-empty").hidden = true;
  }

  // What a view that could not be loaded still shows: a board (the start position when none
  // was drawn yet), the names of the sides, and no pager for a list that is not there.
  function drawShell() {
    // A board drawn for another view (the server could not be reached for this one's
    // position) is not the one asked for: the start is drawn where it is asked for, and any
    // other board is faded, with its path, until the answer comes.
    const asksStart = !state.sfen && !state.moves && !state.start && state.game == null;
    if (!$("board").hasChildNodes() || (shown !== generation && asksStart)) drawPosition(STARTPOS, null, false);
    const stale = shown !== generation && !asksStart;
    for (const id of STALE_PARTS) $(id).classList.toggle("stale", stale);
    if (stale) $("status").textContent = "";
    setTitle(null);
    const L = labels();
    for (const side of ["black", "white"]) if (!$(`${side}-name`).textContent) $(`${side}-name`).textContent = L[side];
    $("pager").hidden = true;
    fillFilters();
    fillStart();
  }

  async function loadExplorer(mine) {
    $("explorer").hidden = false;
    $("viewer").hidden = true;
    // The position needs no database: its board is drawn even when the list cannot be had.
    const query = fetchJson(`/api/query?${apiParams(state, { limit: LIMIT, offset: state.offset })}`);
    query.catch(() => {});
    let pos;
    try {
      pos = await fetchJson(`/api/position?${apiParams(state)}`);
    } catch (e) {
      if (mine === generation) clearAnswer();
      e.offer = e.status === 400 && (await handicapStartPlays());
      throw e;
    }
    if (mine !== generation) return;
    // The presses of ← made while it loaded, each one move back from it.
    if (backs && pos.moves.length) {
      const n = copy(state);
      n.moves = pos.moves.slice(0, -Math.min(backs, pos.moves.length)).map((m) => m.usi).join(" ");
      n.offset = 0;
      return go(n);
    }
    backs = 0;
    position = pos;
    shown = mine;
    // Moves given in any notation are kept in the URL as USI from here on.
    const usi = pos.moves.map((m) => m.usi).join(" ");
    if (!state.sfen && usi !== state.moves) {
      state.moves = usi;
      history.replaceState(null, "", url(state));
    }
    const L = labels();
    drawPosition(pos.sfen, pos.moves.length ? pos.moves[pos.moves.length - 1].usi : null, true);
    $("black-name").textContent = L.black;
    $("white-name").textContent = L.white;
    $("black-name").title = $("white-name").title = "";
    $("status").textContent = pos.mate ? L.mate : pos.check ? L.check : "";
    const last = pos.moves[pos.moves.length - 1];
    setTitle(last && `${last[state.notation] || last.usi} (${pos.moves.length})`);
    KX.views.path(pos.moves, state.notation, L, (ply) => {
      if (mine !== generation) return;
      const next = copy(state);
      next.moves = pos.moves.slice(0, ply).map((m) => m.usi).join(" ");
      next.offset = 0;
      go(next);
    });
    fillFilters();
    fillStart();
    let answer;
    try {
      answer = await query;
    } catch (e) {
      if (mine === generation) clearAnswer();
      throw e;
    }
    if (mine !== generation) return;
    // A click on a table drawn for a view left since (a double click: the first one went on)
    // is no click on the view now shown.
    KX.views.nextMoves(answer, state.notation, L, (usi) => { if (mine === generation) play(usi); });
    KX.views.gameList(answer, state.offset, LIMIT, L, (id, ply) => { if (mine === generation) openGame(id, ply); }, (offset) => {
      const next = copy(state);
      next.offset = offset;
      go(next);
    });
    if (answer.position.games === 0) {
      // Else it reads as if the filters kept no game, or the archive held none there.
      if (Object.keys(state.filters).length) $("summary").textContent = $("games-empty").textContent = L.noGamesKept;
      offerHandicapStart(L);
    }
  }

  // The handicap a filter keeps, when the moves start from the even game's: [slug, ja, en].
  function filteredHandicap() {
    const value = state.filters.handicap;
    const entry = value && KX.HANDICAPS.find(([slug, ja, en]) => [slug, ja, en].includes(value));
    return entry && entry[0] !== "even" && !state.start && !state.sfen ? entry : null;
  }

  // Whether moves the even start refuses can be played from the filtered handicap's start.
  async function handicapStartPlays() {
    const entry = filteredHandicap();
    if (!entry || !state.moves) return false;
    const q = new URLSearchParams({ moves: state.moves, start: entry[0] });
    return fetchJson(`/api/position?${q}`).then(() => true, () => false);
  }

  // A handicap game never reaches a position of the even game: with a handicap filter and
  // the even start, an empty list (or moves only that handicap's start can play) says where
  // those games start, and offers to go there.
  function offerHandicapStart(L) {
    const entry = filteredHandicap();
    if (!entry) return;
    const [slug, ja, en] = entry;
    const name = state.lang === "en" ? en : ja;
    const empty = $("games-empty");
    empty.hidden = false;
    empty.textContent = `${L.handicapStart(name)} `;
    const button = document.createElement("button");
    button.type = "button";
    button.id = "handicap-start";
    button.textContent = L.startThere(name);
    button.onclick = () => {
      const n = explorerCopy();
      Object.assign(n, { sfen: "", offset: 0, start: slug });
      go(n);
    };
    empty.appendChild(button);
  }

  async function loadGame(mine) {
    if (!/^[0-9]{1,18}$/.test(state.game)) throw new Error(labels().notGameId(state.game));
    // `01` is game 1: written so in the URL, so that a step does not take it for another game.
    state.game = state.game.replace(/^0+(?=[0-9])/, "");
    const filters = filterParams(state);
    if (!game || String(game.id) !== state.game || game.filters !== filters) {
      game = await fetchJson(`/api/game/${encodeURIComponent(state.game)}${filters}`);
      game.filters = filters;
    }
    if (mine !== generation) return;
    $("explorer").hidden = true;
    $("viewer").hidden = false;
    // A ply past the end is the last one, and one that is no count (`-5`, `abc`) the start:
    // the URL says which is shown.
    const ply = Math.min(state.ply, game.plies.length);
    state.ply = ply;
    const asked = new URLSearchParams(location.search);
    if (asked.get("game") !== state.game || asked.get("ply") !== String(ply)) history.replaceState(null, "", url(state));
    const L = labels();
    const sfen = ply === 0 ? game.start : game.plies[ply - 1].sfen;
    drawPosition(sfen, ply === 0 ? null : game.plies[ply - 1].usi, false);
    for (const side of ["black", "white"]) {
      const who = $(`${side}-name`);
      who.innerHTML = KX.views.playerHtml(game[side], game[`${side}_title`]);
      who.title = who.textContent;
    }
    $("status").textContent = "";
    if (!drawn || drawn.game !== game || drawn.notation !== state.notation || drawn.lang !== state.lang) {
      KX.views.viewer(game, state.notation, L, stepTo);
      drawn = { game, notation: state.notation, lang: state.lang };
    }
    KX.views.viewerAt(game, ply, L);
    setTitle(`${$("game-title").title} (${ply}/${game.plies.length})`);
  }

  // The window's title names the view, so that tabs, the history and screen readers tell
  // views apart: the last move of the explorer's path, or the game and its move.
  function setTitle(text) {
    document.title = text ? `${text} – kifudex` : "kifudex";
  }

  // Draws the board and both hands; `playable` lets the side to move pick pieces.
  function drawPosition(sfen, last, playable) {
    for (const id of STALE_PARTS) $(id).classList.remove("stale");
    const L = labels();
    const targets = [];
    let selected = null;
    if (playable && selection && position) {
      for (const mv of position.legal) {
        if (selection.from && mv.startsWith(selection.from) && !mv.includes("*")) targets.push(mv.slice(2, 4));
        if (selection.drop && mv.startsWith(`${selection.drop}*`)) targets.push(mv.slice(2, 4));
      }
      selected = selection.from || null;
    }
    const pos = KX.board.draw($("board"), {
      sfen, last, selected, targets, lang: state.lang,
      onSquare: playable ? clickSquare : null,
    });
    for (const color of ["black", "white"]) {
      KX.board.drawHand($(`${color}-hand`), {
        color,
        hand: pos.hand[color],
        variant: pos.variant,
        selectable: playable && pos.turn === color,
        selected: playable && selection && selection.drop && pos.turn === color ? selection.drop : null,
        emptyText: `${L.hand}: ${L.none}`,
        onPick: clickHand,
      });
      const flag = $(`${color}-turn`);
      flag.textContent = pos.turn === color ? L.toMove : "";
      flag.classList.toggle("on", pos.turn === color);
    }
  }

  function redrawBoard() {
    const last = position.moves.length ? position.moves[position.moves.length - 1].usi : null;
    drawPosition(position.sfen, last, true);
  }

  function clickSquare(sq) {
    if (!position || shown !== generation) return;
    // Another square answers no question about the move before.
    closePromotion();
    if (selection) {
      const base = selection.from ? `${selection.from}${sq}` : `${selection.drop}*${sq}`;
      const plain = position.legal.includes(base), promoted = position.legal.includes(`${base}+`);
      if (plain && promoted) return askPromotion(base);
      if (plain || promoted) return play(promoted ? `${base}+` : base);
    }
    const movable = position.legal.some((mv) => mv.startsWith(sq) && !mv.includes("*"));
    selection = movable && !(selection && selection.from === sq) ? { from: sq } : null;
    redrawBoard();
  }

  function clickHand(kind) {
    if (shown !== generation) return;
    closePromotion();
    selection = selection && selection.drop === kind ? null : { drop: kind };
    redrawBoard();
  }

  function askPromotion(base) {
    const L = labels();
    pendingPromotion = base;
    $("promotion-text").textContent = L.promote;
    $("promote-yes").textContent = L.promoteYes;
    $("promote-no").textContent = L.promoteNo;
    $("promotion").hidden = false;
  }

  // Plays `usi` from the explorer's position.
  function play(usi) {
    const next = copy(state);
    if (next.sfen) {
      // From an SFEN the moves start there.
      next.start = next.sfen;
      next.sfen = "";
    }
    next.moves = (next.moves ? `${next.moves} ${usi}` : usi).trim();
    next.offset = 0;
    go(next);
  }

  function openGame(id, ply) {
    const next = copy(state);
    next.game = String(id);
    next.ply = ply;
    game = game && game.id === id ? game : null;
    go(next);
  }

  // A step within the game replaces the history entry rather than adding one: Back leaves
  // the game (to the view it was opened from) instead of stepping back through every move.
  function stepTo(ply) {
    if (!game) return;
    const next = copy(state);
    next.ply = Math.max(0, Math.min(ply, game.plies.length));
    if (next.ply !== state.ply) go(next, true);
  }

  function fillFilters() {
    const form = $("filters");
    for (const f of FILTERS) {
      const field = form.elements[f];
      if (field.tagName === "SELECT") chooseOption(field, state.filters[f] || "");
      else field.value = state.filters[f] || "";
    }
    const n = Object.keys(state.filters).length;
    $("filters-title").innerHTML = `${KX.views.esc(labels().filters)}${n ? `<span class="active-count">(${n})</span>` : ""}`;
    if (n) $("filters-panel").open = true;
  }

  // Chooses the option a link's value names in any spelling the server reads (香落ち, Lance,
  // unknown); for one no option names, adds it as written, so that the form shows every filter
  // in force, sends it again, and the server says what is wrong with it.
  function chooseOption(select, value) {
    for (const o of select.querySelectorAll("option[data-added]")) o.remove();
    const lower = value.toLowerCase();
    const named = (names) => names.some((name) => name.toLowerCase() === lower);
    const handicap = KX.HANDICAPS.find((names) => named(names));
    const option = [...select.options].find((o) => o.value.toLowerCase() === lower)
      || (select.name === "handicap" && handicap && [...select.options].find((o) => o.value === handicap[0]))
      || (select.name === "result" && lower === "unknown" && [...select.options].find((o) => o.value === "other"));
    if (option) {
      select.value = option.value;
      return;
    }
    const added = document.createElement("option");
    added.value = value;
    added.textContent = value;
    added.dataset.added = "";
    select.append(added);
    select.value = value;
  }

  function fillStart() {
    const value = state.sfen ? "" : state.start || "even";
    const select = $("start-select");
    const known = KX.HANDICAPS.find((names) => names.some((name) => name.toLowerCase() === value.toLowerCase()));
    select.value = known ? known[0] : "";
    select.disabled = false;
  }

  // Every label of the page in the chosen language.
  function applyLabels() {
    const L = labels();
    document.documentElement.lang = state.lang;
    $("subtitle").textContent = L.title;
    $("jump-text").placeholder = L.jumpPlaceholder;
    $("jump-go").textContent = L.jump;
    $("lang-switch").textContent = L.language;
    $("notation-switch").textContent = state.notation === "western" ? L.toJapanese : L.toWestern;
    for (const el of document.querySelectorAll("[data-label]")) el.textContent = L[el.dataset.label];
    for (const [id, key] of [["path-start", "toStart"], ["path-back", "back"], ["step-first", "toStart"], ["step-prev", "back"], ["step-next", "forward"], ["step-last", "toEnd"]]) $(id).title = L[key];
    $("filters-apply").textContent = L.apply;
    $("filters-clear").textContent = L.clear;
    $("viewer-close").textContent = `‹ ${L.backToExplorer}`;
    $("viewer-explore").textContent = L.explore;
    document.querySelector('[data-label="played"]').title = L.playedHint;
    document.querySelector('[data-label="reached"]').title = L.reachedHint;
    document.querySelector('[data-label="score"]').title = L.scoreHint;
    const result = $("filters").elements.result;
    result.innerHTML = `<option value="">${L.any}</option>` + KX.RESULTS.map((r) => `<option value="${r}">${L.resultNames[r]}</option>`).join("");
    const handicap = $("filters").elements.handicap;
    const names = KX.HANDICAPS.map(([slug, ja, en]) => `<option value="${slug}">${state.lang === "en" ? en : ja}</option>`).join("");
    handicap.innerHTML = `<option value="">${L.any}</option>` + names;
    $("start-select").innerHTML = `<option value="" disabled>SFEN</option>` + names;
  }

  function wire() {
    $("lang-switch").onclick = () => { const n = copy(state); n.lang = state.lang === "en" ? "ja" : "en"; go(n); };
    $("notation-switch").onclick = () => { const n = copy(state); n.notation = state.notation === "western" ? "japanese" : "western"; go(n); };
    $("home").onclick = (e) => { e.preventDefault(); const n = copy(state); Object.assign(n, { moves: "", sfen: "", start: "", offset: 0, game: null, ply: 0 }); go(n); };
    $("path-start").onclick = () => { const n = explorerCopy(); n.moves = ""; n.offset = 0; go(n); };
    $("path-back").onclick = () => back();
    $("start-select").onchange = (e) => {
      const n = explorerCopy();
      Object.assign(n, { sfen: "", moves: "", offset: 0, start: e.target.value === "even" ? "" : e.target.value });
      go(n);
    };
    $("filters").onsubmit = (e) => {
      e.preventDefault();
      const n = explorerCopy();
      n.filters = {};
      for (const f of FILTERS) {
        const v = $("filters").elements[f].value.trim();
        if (v) n.filters[f] = v;
      }
      n.offset = 0;
      go(n);
    };
    $("filters-clear").onclick = () => { const n = explorerCopy(); n.filters = {}; n.offset = 0; go(n); };
    $("promote-yes").onclick = () => pendingPromotion && play(`${pendingPromotion}+`);
    $("promote-no").onclick = () => pendingPromotion && play(pendingPromotion);
    $("step-first").onclick = () => stepTo(0);
    $("step-prev").onclick = () => stepTo(state.ply - 1);
    $("step-next").onclick = () => stepTo(state.ply + 1);
    $("step-last").onclick = () => game && stepTo(game.plies.length);
    $("viewer-close").onclick = () => { const n = copy(state); n.game = null; n.ply = 0; go(n); };
    $("viewer-explore").onclick = () => {
      if (!game) return;
      const n = copy(state);
      const ply = Math.min(state.ply, game.plies.length);
      // A handicap's start is named in the link, as its filter names it, not written out.
      const named = game.handicap && KX.HANDICAPS.find(([, ja]) => ja === game.handicap);
      const start = game.start === STARTPOS || (named && named[0] === "even") ? "" : named ? named[0] : game.start;
      Object.assign(n, {
        game: null, ply: 0, offset: 0, sfen: "", start,
        moves: game.plies.slice(0, ply).map((p) => p.usi).join(" "),
      });
      go(n);
    };
    $("jump-form").onsubmit = async (e) => {
      e.preventDefault();
      const text = $("jump-text").value;
      if (!text.trim()) return;
      document.body.dataset.state = "loading";
      try {
        const found = await fetchJson("/api/jump", { method: "POST", body: text, headers: { "Content-Type": "text/plain; charset=utf-8" } });
        const n = copy(state);
        Object.assign(n, { game: null, ply: 0, offset: 0, sfen: found.sfen || "", moves: found.moves || "", start: found.start && found.start !== "startpos" ? found.start : "" });
        $("jump-text").value = "";
        $("jump-text").blur();
        await go(n);
        // A record that stops early opens where it stops: said, not left to be guessed.
        if (found.stopped) showError(labels().recordStops(found.stopped.ply, found.stopped.reason));
      } catch (err) {
        // No answer, or no database for now: said, and asked again while the text is still
        // the one sent (the views recover so too).
        const retry = err.status === 503 || err.status === 0;
        showError(retry ? `${err.message.replace(/\.$/, "")}. ${labels().retrying}` : err.message);
        document.body.dataset.state = "ready";
        if (retry) {
          setTimeout(() => { if ($("jump-text").value === text) $("jump-form").requestSubmit(); }, RETRY_MS);
        }
      }
    };
    $("jump-text").onkeydown = (e) => {
      if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); $("jump-form").requestSubmit(); }
    };
    document.addEventListener("keydown", (e) => {
      const tag = (e.target.tagName || "").toLowerCase();
      if (tag === "input" || tag === "textarea" || tag === "select" || e.altKey || e.ctrlKey || e.metaKey) return;
      if (state.game != null && game) {
        if (e.key === "ArrowRight") { e.preventDefault(); stepTo(state.ply + 1); }
        else if (e.key === "ArrowLeft") { e.preventDefault(); stepTo(state.ply - 1); }
        else if (e.key === "Home") { e.preventDefault(); stepTo(0); }
        else if (e.key === "End") { e.preventDefault(); stepTo(game.plies.length); }
      } else if (e.key === "ArrowLeft") {
        e.preventDefault();
        back();
      } else if (e.key === "Escape" && (selection || pendingPromotion)) {
        selection = null;
        closePromotion();
        redrawBoard();
      }
    });
    window.addEventListener("popstate", () => { backs = 0; load(); });
  }

  // One move back from the explorer's position; while a position loads, counted, and taken
  // back from it once it is there.
  function back() {
    if (state.game != null) {
      // A game that could not be opened: its error stands over the explorer, which ← goes back to.
      if ($("viewer").hidden) go(explorerCopy());
      return;
    }
    if (shown !== generation) {
      if (document.body.dataset.state === "loading") backs++;
      return;
    }
    if (!position || position.moves.length === 0) return;
    const n = copy(state);
    n.moves = position.moves.slice(0, -1).map((m) => m.usi).join(" ");
    n.offset = 0;
    go(n);
  }

  document.addEventListener("DOMContentLoaded", () => {
    state = readUrl();
    wire();
    load();
  });
})();
