// The script of a counterexample's HTML page (reports/render/render_html.cpp embeds it): the details
// panel (a step's accesses, log lines and the state after it, the changed keys marked), folding,
// zoom and the keyboard. It reads the page and its JSON block only; it fetches nothing.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("trace-data").textContent);
  const body = document.body;
  const details = document.getElementById("details");
  const rows = Array.from(document.querySelectorAll("tr.step[data-p]"));
  const rowOf = new Map(rows.map((r) => [Number(r.dataset.p), r]));

  // The state after each step, replayed from the changes the page holds.
  const states = [];
  const changed = [];
  const removedKeys = [];
  let state = null;
  data.steps.forEach((s, p) => {
    if ("state" in s) {
      state = s.state;
      changed.push(null);
    } else if ("set" in s) {
      const next = Object.assign({}, state && typeof state === "object" ? state : {});
      for (const k of s.removed || []) delete next[k];
      Object.assign(next, s.set);
      state = next;
      changed.push(Object.keys(s.set));
    } else {
      changed.push([]);
    }
    removedKeys.push(s.removed || []);
    states.push(state);
  });

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  let pinned = null;  // the position of the pinned step, or null

  function show(p) {
    details.replaceChildren();
    if (p === null) {
      delete details.dataset.p;
      details.append(el("p", "hint", "Hover a step for what it accessed and the state after it."));
      return;
    }
    const row = rowOf.get(p);
    const s = data.steps[p];
    if (pinned === p) details.append(el("div", "pinned", "pinned (Esc to unpin)"));
    const label = row.querySelector(".label").cloneNode(true);
    for (const badge of label.querySelectorAll(".badge")) badge.remove();
    details.append(el("h2", null, label.textContent.trim()));
    for (const badge of row.querySelectorAll(".label .badge"))
      details.append(el("span", badge.className, badge.textContent), document.createTextNode(" "));
    details.dataset.p = String(p);
    const actor = data.actors[Number(row.querySelector("td.cell").dataset.lane)];
    details.append(el("div", "actor", "actor: " + actor));
    const what = row.querySelector(".what");
    if (what) details.append(el("div", "what", what.textContent));
    details.append(el("h3", null, "accesses"));
    if (s.accesses.length === 0) {
      details.append(el("div", "hint", "none declared"));
    } else {
      const ul = el("ul", "accesses");
      for (const [object, kind] of s.accesses) ul.append(el("li", null, kind + " " + object));
      details.append(ul);
    }
    if (s.log) {
      details.append(el("h3", null, "log"));
      for (const line of s.log) details.append(el("div", "logline", line));
    }
    if (data.has_states) {
      details.append(el("h3", null, "state after the step"));
      const box = el("div", "state");
      const st = states[p];
      if (st !== null && typeof st === "object" && !Array.isArray(st)) {
        const marks = new Set(changed[p] || []);
        for (const k of Object.keys(st)) {
          const kv = el("div", "kv" + (marks.has(k) ? " changed" : ""));
          kv.dataset.key = k;
          kv.append(el("span", "k", k), document.createTextNode(" = " + JSON.stringify(st[k])));
          box.append(kv);
        }
        for (const k of removedKeys[p]) {
          const kv = el("div", "kv removed");
          kv.dataset.key = k;
          kv.append(el("span", "k", k), document.createTextNode(" removed"));
          box.append(kv);
        }
      } else {
        box.append(el("div", "kv changed", JSON.stringify(st)));
      }
      details.append(box);
    }
  }

  function visible(row) {
    return row.offsetParent !== null;
  }

  function select(p, scroll) {
    if (pinned !== null) rowOf.get(pinned).classList.remove("current");
    pinned = p;
    if (p !== null) {
      const row = rowOf.get(p);
      if (!visible(row)) row.classList.add("open");
      row.classList.add("current");
      if (scroll) row.scrollIntoView({ block: "nearest", inline: "nearest" });
    }
    show(p);
  }

  for (const row of rows) {
    const p = Number(row.dataset.p);
    row.addEventListener("mouseenter", () => show(p));
    row.addEventListener("mouseleave", () => show(pinned));
    row.addEventListener("click", () => select(pinned === p ? null : p, false));
  }

  for (const fold of document.querySelectorAll("tr.fold")) {
    fold.addEventListener("click", () => {
      fold.classList.add("open");
      for (const r of document.querySelectorAll('tr.uninvolved[data-run="' + fold.dataset.run + '"]'))
        r.classList.add("open");
    });
  }

  const toggle = document.getElementById("fold-toggle");
  function setFolded(folded) {
    body.classList.toggle("folded", folded);
    if (toggle) toggle.textContent = folded ? "show every step (f)" : "fold the steps not involved (f)";
    if (pinned !== null && !visible(rowOf.get(pinned))) rowOf.get(pinned).classList.add("open");
  }
  if (toggle) toggle.addEventListener("click", () => setFolded(!body.classList.contains("folded")));

  // The next or previous step shown (the pinned step is always shown: select unfolds it).
  function step(delta) {
    const shown = rows.filter(visible).map((r) => Number(r.dataset.p));
    if (shown.length === 0) return;
    let i = pinned === null ? (delta > 0 ? 0 : shown.length - 1) : shown.indexOf(pinned) + delta;
    i = Math.min(shown.length - 1, Math.max(0, i));
    select(shown[i], true);
  }

  function jumpToRace() {
    if (!data.race) return;
    const [first, second] = data.race;
    select(pinned === first ? second : first, true);
  }

  function jumpToViolation() {
    if (data.violating !== null) {
      select(data.violating, true);
    } else {
      const end = document.getElementById("violation-end");
      if (end) end.scrollIntoView({ block: "center" });
    }
  }

  let zoom = 1;
  function setZoom(z) {
    zoom = Math.min(8, Math.max(0.25, z));
    document.documentElement.style.setProperty("--zoom", String(zoom));
  }

  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    switch (e.key) {
      case "j": case "ArrowDown": step(1); break;
      case "k": case "ArrowUp": step(-1); break;
      case "r": jumpToRace(); break;
      case "v": jumpToViolation(); break;
      case "f": setFolded(!body.classList.contains("folded")); break;
      case "Escape": select(null, false); break;
      case "+": case "=": if (data.timed) setZoom(zoom * 1.5); break;
      case "-": if (data.timed) setZoom(zoom / 1.5); break;
      default: return;
    }
    e.preventDefault();
  });
  body.dataset.ready = "true";
})();
