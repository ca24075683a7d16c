// The board, drawn in SVG: squares, coordinates, pieces as kanji on the usual five-sided
// tiles, the last move and the legal targets of a selected piece. The number of files and
// ranks are parameters (a 9×9 board for shogi; variants may use others). It knows no rule:
// which moves are legal comes from the server.
"use strict";
window.KX = window.KX || {};

(function () {
  const KANJI = {
    K: "玉", R: "飛", B: "角", G: "金", S: "銀", N: "桂", L: "香", P: "歩",
    "+R": "龍", "+B": "馬", "+S": "全", "+N": "圭", "+L": "杏", "+P": "と",
  };
  // Yari shogi has no kanji of its own: its pieces carry their Western letters, as its
  // notation writes them (G the general; YR, YB, YN the yari rook, bishop and knight).
  const YARI = {
    K: "G", R: "YR", B: "YB", N: "YN", P: "P", "+R": "+YR", "+B": "+YB", "+N": "+YN", "+P": "+P",
  };
  const HAND_ORDER = ["R", "B", "G", "S", "N", "L", "P"];
  const W = 44; // square width
  const H = 48; // square height (shogi squares are a little taller than wide)
  const M = 22; // margin for the coordinates
  const DIGITS = "０１２３４５６７８９";
  const RANKS_JA = "一二三四五六七八九";

  // Parses an SFEN into {files, ranks, cells[rank][file] = {color, kind}, hands, turn}.
  function parseSfen(sfen) {
    const [board, turn, hands] = sfen.trim().split(/\s+/);
    const rows = board.split("/");
    const cells = rows.map((row) => {
      const out = [];
      let promoted = false;
      for (const ch of row) {
        if (ch === "+") { promoted = true; continue; }
        if (/[0-9]/.test(ch)) {
          for (let i = 0; i < Number(ch); i++) out.push(null);
          continue;
        }
        const upper = ch.toUpperCase();
        out.push({ color: ch === upper ? "black" : "white", kind: (promoted ? "+" : "") + upper });
        promoted = false;
      }
      return out;
    });
    const hand = { black: {}, white: {} };
    if (hands && hands !== "-") {
      let count = "";
      for (const ch of hands) {
        if (/[0-9]/.test(ch)) { count += ch; continue; }
        const side = ch === ch.toUpperCase() ? "black" : "white";
        hand[side][ch.toUpperCase()] = (hand[side][ch.toUpperCase()] || 0) + (count ? Number(count) : 1);
        count = "";
      }
    }
    const files = cells[0] ? cells[0].length : 9;
    // A board seven files wide is yari shogi's (its SFEN is the same board as its FEN).
    const variant = files === 7 ? "yari" : "standard";
    return { files, ranks: cells.length, cells, hand, turn: turn === "w" ? "white" : "black", variant };
  }

  // The USI name of the square at column `col` (from the left) and row `row` (from the top).
  function squareName(pos, col, row) {
    return `${pos.files - col}${String.fromCharCode(97 + row)}`;
  }

  function squareAt(pos, name) {
    const file = Number(name.slice(0, -1));
    const row = name.charCodeAt(name.length - 1) - 97;
    return { col: pos.files - file, row };
  }

  // One piece tile, pointing up for Black and down for White, centred on (cx, cy).
  function tile(kind, color, cx, cy, scale, at, variant) {
    const w = W * 0.78 * scale, h = H * 0.86 * scale;
    const top = -h / 2, bottom = h / 2, shoulder = top + h * 0.24;
    const points = [
      [0, top], [w * 0.36, shoulder], [w / 2, bottom], [-w / 2, bottom], [-w * 0.36, shoulder],
    ].map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
    const promoted = kind.startsWith("+");
    const text = variant === "yari" ? YARI[kind] || kind
      : kind === "K" && color === "white" ? "王" : KANJI[kind] || kind;
    // Letters narrow as they grow: one kanji or letter, two (YR), three (+YR).
    const size = W * scale * [0.54, 0.54, 0.4, 0.3][Math.min(text.length, 3)];
    const rotate = color === "white" ? " rotate(180)" : "";
    const where = at ? ` data-at="${at}" data-kind="${kind}" data-color="${color}"` : "";
    return `<g class="piece${promoted ? " promoted" : ""}"${where} transform="translate(${cx.toFixed(1)},${cy.toFixed(1)})${rotate}">` +
      `<polygon points="${points}"/>` +
      `<text y="${(h * 0.14).toFixed(1)}" font-size="${size.toFixed(1)}">${text}</text></g>`;
  }

  // Draws the board into `svgHost` (an element whose content it replaces). `view` holds:
  // sfen, last (USI of the last move), selected (a square name or "drop:P"), targets
  // (square names), lang ("ja" or "en"), and onSquare(name), called on a click.
  function draw(svgHost, view) {
    const pos = parseSfen(view.sfen);
    const width = pos.files * W + 2 * M, height = pos.ranks * H + 2 * M;
    const parts = [`<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="board" class="board-svg">`];
    parts.push(`<rect class="board-bg" x="${M - 6}" y="${M - 6}" width="${pos.files * W + 12}" height="${pos.ranks * H + 12}" rx="4"/>`);
    const last = view.last && !view.last.includes("*") ? view.last.slice(0, 2) : null;
    const lastTo = view.last ? view.last.slice(2, 4) : null;
    const targets = new Set(view.targets || []);
    for (let row = 0; row < pos.ranks; row++) {
      for (let col = 0; col < pos.files; col++) {
        const name = squareName(pos, col, row);
        let cls = "sq";
        if (name === lastTo) cls += " last";
        else if (name === last) cls += " last-from";
        if (name === view.selected) cls += " selected";
        parts.push(`<rect class="${cls}" data-sq="${name}" x="${M + col * W}" y="${M + row * H}" width="${W}" height="${H}"/>`);
      }
    }
    // Grid lines, and the four star points that mark the camps.
    for (let c = 0; c <= pos.files; c++) parts.push(`<line class="grid" x1="${M + c * W}" y1="${M}" x2="${M + c * W}" y2="${M + pos.ranks * H}"/>`);
    for (let r = 0; r <= pos.ranks; r++) parts.push(`<line class="grid" x1="${M}" y1="${M + r * H}" x2="${M + pos.files * W}" y2="${M + r * H}"/>`);
    if (pos.files === 9 && pos.ranks === 9) {
      for (const [c, r] of [[3, 3], [6, 3], [3, 6], [6, 6]]) parts.push(`<circle class="star" cx="${M + c * W}" cy="${M + r * H}" r="2.6"/>`);
    }
    const ja = view.lang !== "en";
    for (let col = 0; col < pos.files; col++) {
      const file = pos.files - col;
      const label = ja ? DIGITS[file] || String(file) : String(file);
      parts.push(`<text class="coord" x="${M + col * W + W / 2}" y="${M - 8}">${label}</text>`);
    }
    for (let row = 0; row < pos.ranks; row++) {
      const label = ja ? RANKS_JA[row] || String(row + 1) : String.fromCharCode(97 + row);
      parts.push(`<text class="coord" x="${M + pos.files * W + 11}" y="${M + row * H + H / 2 + 5}">${label}</text>`);
    }
    for (let row = 0; row < pos.ranks; row++) {
      for (let col = 0; col < pos.files; col++) {
        const cell = pos.cells[row][col];
        if (cell) parts.push(tile(cell.kind, cell.color, M + col * W + W / 2, M + row * H + H / 2, 1, squareName(pos, col, row), pos.variant));
      }
    }
    for (const name of targets) {
      const { col, row } = squareAt(pos, name);
      const occupied = pos.cells[row] && pos.cells[row][col];
      const cx = M + col * W + W / 2, cy = M + row * H + H / 2;
      parts.push(occupied
        ? `<circle class="target capture" cx="${cx}" cy="${cy}" r="${W * 0.46}"/>`
        : `<circle class="target" cx="${cx}" cy="${cy}" r="${W * 0.14}"/>`);
    }
    // Clicks land on a transparent layer above everything, one rectangle per square.
    for (let row = 0; row < pos.ranks; row++) {
      for (let col = 0; col < pos.files; col++) {
        parts.push(`<rect class="hit" data-hit="${squareName(pos, col, row)}" x="${M + col * W}" y="${M + row * H}" width="${W}" height="${H}"/>`);
      }
    }
    parts.push("</svg>");
    svgHost.innerHTML = parts.join("");
    svgHost.onclick = (event) => {
      const hit = event.target.closest("[data-hit]");
      if (hit && view.onSquare) view.onSquare(hit.getAttribute("data-hit"));
    };
    return pos;
  }

  // Draws one side's pieces in hand into `host`: a button per kind with its count.
  // `view` holds: color, hand ({R: 1, P: 3, …}), selectable (whether drops can be chosen),
  // selected (the kind chosen, if any), variant ("yari" draws letters), onPick(kind).
  function drawHand(host, view) {
    const kinds = HAND_ORDER.filter((k) => view.hand[k]);
    host.innerHTML = kinds.map((k) => {
      const n = view.hand[k];
      const svg = `<svg viewBox="0 0 ${W} ${H}" class="hand-piece">${tile(k, "black", W / 2, H / 2, 0.95, null, view.variant)}</svg>`;
      const sel = view.selected === k ? " selected" : "";
      return `<button type="button" class="hand-item${sel}" data-hand="${view.color}" data-kind="${k}"${view.selectable ? "" : " disabled"}>` +
        `${svg}${n > 1 ? `<span class="count">${n}</span>` : ""}</button>`;
    }).join("") || `<span class="hand-empty">${view.emptyText}</span>`;
    host.onclick = (event) => {
      const item = event.target.closest("[data-kind]");
      if (item && view.selectable && view.onPick) view.onPick(item.getAttribute("data-kind"));
    };
  }

  KX.board = { parseSfen, draw, drawHand, KANJI };
})();
