// riichi-lens overlay page: renders /api/state and follows /api/events (Server-Sent Events).
// Query options: size=s|m|l|xl|PIXELS (tile height), panels=hand,score,table,status,
// lang=en|ja, opacity=0..100 (panel background).
"use strict";

(function () {
  const params = new URLSearchParams(window.location.search);
  const lang = (params.get("lang") || "en").toLowerCase().startsWith("ja") ? "ja" : "en";
  const SIZES = { xs: 28, s: 38, m: 52, l: 70, xl: 96 };
  const sizeText = (params.get("size") || "m").toLowerCase();
  const tileH = SIZES[sizeText] || Math.min(240, Math.max(16, parseInt(sizeText, 10) || SIZES.m));
  const panels = new Set(
    (params.get("panels") || "hand,score,table,status")
      .toLowerCase()
      .split(",")
      .map((p) => p.trim())
  );
  const opacity = params.has("opacity")
    ? Math.min(100, Math.max(0, parseInt(params.get("opacity"), 10) || 0)) / 100
    : 0.78;

  const root = document.documentElement;
  root.lang = lang;
  root.style.setProperty("--tile-h", tileH + "px");
  root.style.setProperty("--hand-tile-h", tileH + "px");
  root.style.setProperty("--panel-bg", "rgba(14, 17, 24, " + opacity + ")");

  // Japanese names of every yaku in the README's "Yaku names" section.
  const YAKU_JA = {
    riichi: "立直",
    double_riichi: "ダブル立直",
    ippatsu: "一発",
    menzen_tsumo: "門前清自摸和",
    pinfu: "平和",
    tanyao: "断幺九",
    iipeikou: "一盃口",
    yakuhai_haku: "役牌 白",
    yakuhai_hatsu: "役牌 發",
    yakuhai_chun: "役牌 中",
    yakuhai_seat_wind: "自風牌",
    yakuhai_round_wind: "場風牌",
    haitei: "海底摸月",
    houtei: "河底撈魚",
    rinshan: "嶺上開花",
    chankan: "槍槓",
    sanshoku_doujun: "三色同順",
    sanshoku_doukou: "三色同刻",
    ittsu: "一気通貫",
    chanta: "混全帯幺九",
    junchan: "純全帯幺九",
    toitoi: "対々和",
    sanankou: "三暗刻",
    sankantsu: "三槓子",
    honroutou: "混老頭",
    shousangen: "小三元",
    chiitoitsu: "七対子",
    ryanpeikou: "二盃口",
    honitsu: "混一色",
    chinitsu: "清一色",
    nagashi_mangan: "流し満貫",
    renhou: "人和",
    kokushi: "国士無双",
    kokushi_13: "国士無双十三面待ち",
    suuankou: "四暗刻",
    suuankou_tanki: "四暗刻単騎",
    daisangen: "大三元",
    shousuushii: "小四喜",
    daisuushii: "大四喜",
    tsuuiisou: "字一色",
    ryuuiisou: "緑一色",
    chinroutou: "清老頭",
    chuuren: "九蓮宝燈",
    chuuren_9: "純正九蓮宝燈",
    suukantsu: "四槓子",
    tenhou: "天和",
    chiihou: "地和",
    renhou_yakuman: "人和 (役満)",
    dora: "ドラ",
    aka_dora: "赤ドラ",
    ura_dora: "裏ドラ",
    kita: "抜きドラ",
  };
  // English shows the romaji names; these read better than the JSON form.
  const YAKU_EN = {
    kokushi_13: "Kokushi 13-sided wait",
    suuankou_tanki: "Suuankou tanki",
    chuuren_9: "Junsei chuuren",
    renhou_yakuman: "Renhou (yakuman)",
    yakuhai_seat_wind: "Yakuhai: seat wind",
    yakuhai_round_wind: "Yakuhai: round wind",
    yakuhai_haku: "Yakuhai: haku",
    yakuhai_hatsu: "Yakuhai: hatsu",
    yakuhai_chun: "Yakuhai: chun",
  };
  const LIMIT = {
    en: {
      mangan: "Mangan",
      haneman: "Haneman",
      baiman: "Baiman",
      sanbaiman: "Sanbaiman",
      kazoe_yakuman: "Kazoe yakuman",
      yakuman: "Yakuman",
      double_yakuman: "Double yakuman",
      triple_yakuman: "Triple yakuman",
      quadruple_yakuman: "Quadruple yakuman",
    },
    ja: {
      mangan: "満貫",
      haneman: "跳満",
      baiman: "倍満",
      sanbaiman: "三倍満",
      kazoe_yakuman: "数え役満",
      yakuman: "役満",
      double_yakuman: "ダブル役満",
      triple_yakuman: "トリプル役満",
      quadruple_yakuman: "四倍役満",
    },
  };
  const WIND = {
    en: { E: "E", S: "S", W: "W", N: "N", east: "East", south: "South", west: "West", north: "North" },
    ja: { E: "東", S: "南", W: "西", N: "北", east: "東", south: "南", west: "西", north: "北" },
  };

  function num(n) {
    return Number(n).toLocaleString("en-US");
  }

  const T = {
    en: {
      dora: "Dora indicator",
      hanFu: (han, fu) => han + " han " + fu + " fu",
      han: (n) => String(n),
      yakumanHan: (n) => (n >= 26 ? n / 13 + "× yakuman" : "yakuman"),
      ron: (p) => "Ron " + num(p),
      tsumo: (nd, d) => "Tsumo " + num(nd) + " / " + num(d),
      tsumoAll: (p) => "Tsumo " + num(p) + " all",
      total: (p) => num(p),
      extras: (h, s) => "incl. " + num(h) + " honba, " + num(s) + " sticks",
      round: (t) => (WIND.en[t.round] || t.round) + " " + t.hand_number,
      counters: (t) => t.honba + " honba · " + t.sticks + (t.sticks === 1 ? " stick" : " sticks"),
      points: (p) => num(p),
      incomplete: "Not a complete hand yet",
      waiting: "One tile short: waiting on",
      unscored: "Not scored: ",
      ended: (r) => "Game over: " + r,
      yaku: (name) => YAKU_EN[name] || capital(name.replace(/_/g, " ")),
    },
    ja: {
      dora: "ドラ表示",
      hanFu: (han, fu) => han + "翻 " + fu + "符",
      han: (n) => n + "翻",
      yakumanHan: (n) => (n >= 26 ? ["", "", "ダブル役満", "トリプル役満"][n / 13] || n / 13 + "倍役満" : "役満"),
      ron: (p) => "ロン " + num(p) + "点",
      tsumo: (nd, d) => "ツモ " + num(nd) + "・" + num(d) + "点",
      tsumoAll: (p) => "ツモ " + num(p) + "点オール",
      total: (p) => num(p) + "点",
      extras: (h, s) => "本場 " + num(h) + "・供託 " + num(s) + " を含む",
      round: (t) => (WIND.ja[t.round] || t.round) + t.hand_number + "局",
      counters: (t) => t.honba + "本場 · 供託" + t.sticks,
      points: (p) => num(p),
      incomplete: "和了形ではありません",
      waiting: "聴牌: 待ち",
      unscored: "点数なし: ",
      ended: (r) => "対局終了: " + r,
      yaku: (name) => YAKU_JA[name] || name,
    },
  }[lang];

  function capital(s) {
    return s.charAt(0).toUpperCase() + s.slice(1);
  }

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  const TILE_NAME = /^(?:[0-9][mps]|[1-7]z)$/;

  function tile(view) {
    const t = el("span", "tile");
    if (view.face_down) {
      t.classList.add("down");
    } else if (TILE_NAME.test(view.tile)) {
      const img = el("img");
      img.src = "/tiles/" + view.tile + ".png";
      img.alt = view.tile;
      img.draggable = false;
      t.appendChild(img);
    }
    if (view.uncertain) t.classList.add("uncertain");
    t.title = view.tile + (view.uncertain ? " (check)" : "");
    return t;
  }

  function meld(m) {
    const g = el("span", "group meld");
    g.dataset.kind = m.kind;
    let slot = null;
    for (const v of m.tiles) {
      if (v.stacked && slot) {
        slot.classList.add("stack");
        slot.appendChild(tile(v));
        continue;
      }
      if (v.sideways) {
        slot = el("span", "side");
        slot.appendChild(tile(v));
        g.appendChild(slot);
      } else {
        g.appendChild(tile(v));
      }
    }
    return g;
  }

  function renderHand(panel, hand) {
    panel.replaceChildren();
    const row = el("div", "hand");
    const concealed = hand.concealed.slice();
    const win = concealed.pop();
    const g = el("span", "group concealed");
    concealed.forEach((v) => g.appendChild(tile(v)));
    row.appendChild(g);
    if (win) {
      const w = el("span", "group win");
      w.appendChild(tile(win));
      row.appendChild(w);
    }
    hand.melds.forEach((m) => row.appendChild(meld(m)));
    if (hand.dora_indicators.length) {
      const d = el("span", "dora");
      d.appendChild(el("span", "label", T.dora));
      const tiles = el("span", "group");
      hand.dora_indicators.forEach((v) => tiles.appendChild(tile(v)));
      d.appendChild(tiles);
      row.appendChild(d);
    }
    panel.appendChild(row);
    if (hand.problem) {
      const waits = hand.completing || [];
      if (hand.problem.kind === "not_complete" && waits.length) {
        // A hand shown before its winning tile: name its waits, as tile images.
        const note = el("div", "note waits");
        note.appendChild(el("span", "label", T.waiting));
        const tiles = el("span", "group");
        waits.forEach((v) => tiles.appendChild(tile(v)));
        note.appendChild(tiles);
        panel.appendChild(note);
      } else {
        const text = hand.problem.kind === "not_complete" ? T.incomplete : T.unscored + hand.problem.message;
        panel.appendChild(el("div", "note", text));
      }
    }
  }

  function yakuHan(y, score) {
    if (score.yakuman > 0 && y.han >= 13) return T.yakumanHan(y.han);
    return T.han(y.han);
  }

  function renderScore(panel, score) {
    panel.replaceChildren();
    const list = el("dl", "yaku");
    for (const y of score.yaku) {
      list.appendChild(el("dt", null, T.yaku(y.name)));
      list.appendChild(el("dd", null, yakuHan(y, score)));
    }
    panel.appendChild(list);
    const v = el("div", "value");
    if (score.limit) v.appendChild(el("div", "limit", LIMIT[lang][score.limit] || score.limit));
    if (score.yakuman === 0) v.appendChild(el("div", "hanfu", T.hanFu(score.han, score.fu)));
    const p = score.points;
    v.appendChild(el("div", "total", T.total(p.total)));
    let pay = null;
    if (p.ron !== undefined) pay = T.ron(p.ron);
    else if (p.tsumo_dealer !== undefined) pay = T.tsumo(p.tsumo_non_dealer, p.tsumo_dealer);
    else if (p.tsumo_non_dealer !== undefined) pay = T.tsumoAll(p.tsumo_non_dealer);
    if (pay) v.appendChild(el("div", "pay", pay));
    if (p.honba > 0 || p.riichi_sticks > 0) v.appendChild(el("div", "extras", T.extras(p.honba, p.riichi_sticks)));
    panel.appendChild(v);
  }

  function renderTable(panel, table) {
    panel.replaceChildren();
    const head = el("div", "round", T.round(table));
    head.appendChild(el("span", "counters", T.counters(table)));
    panel.appendChild(head);
    const rows = el("table", "players");
    for (const player of table.players) {
      const tr = el("tr", player.dealer ? "dealer" : null);
      tr.appendChild(el("td", "wind", WIND[lang][player.wind] || player.wind));
      tr.appendChild(el("td", "name", player.name));
      tr.appendChild(el("td", "points", T.points(player.points)));
      const mark = el("td", "mark");
      if (player.riichi) mark.appendChild(el("span", "stick"));
      tr.appendChild(mark);
      rows.appendChild(tr);
    }
    panel.appendChild(rows);
    if (table.finished && table.end) panel.appendChild(el("div", "ended", T.ended(table.end)));
  }

  const $ = (id) => document.getElementById(id);
  let current = null;

  function show(id, visible) {
    $(id).hidden = !visible;
  }

  function render(state) {
    const hand = panels.has("hand") ? state.hand : null;
    const score = panels.has("score") ? state.score : null;
    const table = panels.has("table") ? state.table : null;
    if (hand) renderHand($("panel-hand"), hand);
    show("panel-hand", !!hand);
    const before = current && current.score ? JSON.stringify(current.score) : null;
    if (score) {
      renderScore($("panel-score"), score);
      if (current && before !== JSON.stringify(score)) {
        const p = $("panel-score");
        p.classList.remove("fresh");
        void p.offsetWidth; // restart the animation
        p.classList.add("fresh");
      }
    }
    show("panel-score", !!score);
    if (table) renderTable($("panel-table"), table);
    show("panel-table", !!table);
    document.querySelector(".row").hidden = !score && !table;
    const problems = [state.source, state.table_source].filter(
      (s) => s && s.status === "error" && s.message
    );
    const status = $("panel-status");
    status.textContent = problems.map((s) => s.message).join(" · ");
    show("panel-status", panels.has("status") && problems.length > 0);
    current = state;
  }

  // A state is newer if it comes from another server run or has a higher version.
  function accept(state) {
    if (!state || typeof state.version !== "number") return;
    if (current && current.instance === state.instance && state.version <= current.version) return;
    render(state);
  }

  function fetchState() {
    return fetch("/api/state", { cache: "no-store" })
      .then((r) => (r.ok ? r.json() : null))
      .then(accept)
      .catch(() => {});
  }

  let retry = 1000;
  let events = null;
  let polling = null;

  function connect() {
    if (!window.EventSource) {
      // No EventSource: poll instead.
      if (!polling) polling = setInterval(fetchState, 1000);
      fetchState();
      return;
    }
    events = new EventSource("/api/events");
    events.addEventListener("state", (e) => {
      try {
        accept(JSON.parse(e.data));
      } catch (err) {
        /* ignore a bad event */
      }
    });
    events.onopen = () => {
      retry = 1000;
      fetchState();
    };
    events.onerror = () => {
      // The browser retries by itself unless the server answered with an error (e.g. 503
      // while full, or nothing during a restart that closed the stream): then start over.
      if (events.readyState === EventSource.CLOSED) {
        events.close();
        setTimeout(connect, retry);
        retry = Math.min(retry * 2, 5000);
      }
    };
  }

  fetchState();
  connect();
})();
