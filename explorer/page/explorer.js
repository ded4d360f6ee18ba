// The explorer page: it draws what the reference (gaple.explorer, run by Pyodide) answers and
// forwards the player's clicks and keys to it. No rule is decided here: the legal moves, the
// refusals, the ending and the reckoning all come from the reference.
import { loadPyodide } from "./pyodide/pyodide.mjs";
import { playSeeded, startReference } from "./runtime.mjs";

const DOCS = "../"; // the explorer lives in the docs' explorer/ folder
const $ = (id) => document.getElementById(id);

const page = {
  reference: null,
  catalogue: null,
  document: null, // {format, rules, deal, first_hand, actions}: the whole hand, every step
  step: 0, // how many of its actions are played
  view: null, // the reference's view of the hand at that step (or of a finished position)
  selected: null, // {tile, seat}
  compare: null, // from a conformance report: what the engine answered at a step
};

// --- drawing -----------------------------------------------------------------------------

function element(tag, attributes = {}, ...children) {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "class") made.className = value;
    else if (name.startsWith("on")) made.addEventListener(name.slice(2), value);
    else if (value !== null && value !== undefined && value !== false) made.setAttribute(name, value);
  }
  for (const child of children) made.append(child);
  return made;
}

function ruleLink(ruleId) {
  const rule = page.catalogue.rules[ruleId];
  return element("a", { href: DOCS + rule.url, class: "rule", title: rule.statement }, ruleId);
}

function tileFace(left, right) {
  return [element("span", { class: "half" }, String(left)), element("span", { class: "half" }, String(right))];
}

// A tile of a hand: a button named as a player says it ("six-four").
function handTile(tile, seat) {
  const [low, high] = tile.split("-");
  const chosen = page.selected && page.selected.tile === tile;
  const offered = page.view.moves.some((m) => m.tile === tile) && seat === page.view.state.to_act;
  return element(
    "button",
    {
      type: "button",
      class: `tile${chosen ? " selected" : ""}${offered ? " playable" : ""}`,
      "aria-label": page.view.names[tile],
      "aria-pressed": chosen ? "true" : "false",
      "data-tile": tile,
      "data-seat": String(seat),
      onclick: () => select(tile, seat),
    },
    ...tileFace(high, low),
  );
}

function drawLine(state) {
  const line = $("line");
  line.replaceChildren(
    ...state.line.map(([left, right]) =>
      element(
        "span",
        { class: "tile laid", role: "listitem", "aria-label": page.view.names[[left, right].sort().join("-")] },
        ...tileFace(left, right),
      ),
    ),
  );
  if (state.line.length === 0) line.append(element("span", { class: "empty" }, "the table is empty"));
}

function drawEnds(state) {
  const tile = page.selected && page.selected.tile;
  const fits = (end) => page.view.moves.some((m) => m.tile === tile && (m.end === end || (m.kind === "lead" && end === "left")));
  for (const end of ["left", "right"]) {
    const button = $(`end-${end}`);
    const shown = state.ends === null ? (end === "left" ? "lead here" : "") : `${end} end: ${state.ends[end === "left" ? 0 : 1]}`;
    button.textContent = shown || "right end";
    button.disabled = tile === null || state.ending !== null || (state.ends === null && end === "right");
    button.classList.toggle("lit", tile !== null && fits(end));
  }
}

function drawHands(view) {
  const state = view.state;
  const shownSeat = $("seat-view").value;
  const seats = state.hands.map((hand, seat) => {
    const visible = shownSeat === "all" || Number(shownSeat) === seat;
    const tiles = visible
      ? hand.map((tile) => handTile(tile, seat))
      : [element("span", { class: "hidden-tiles" }, `${hand.length} tiles face down`)];
    const discards = state.discards[seat].length
      ? element("span", { class: "discards" }, `discarded: ${visible ? state.discards[seat].join(" ") : state.discards[seat].length}`)
      : "";
    const acting = state.to_act === seat;
    const team = view.teams.length < state.hands.length ? ` (pair ${view.teams.findIndex((t) => t.includes(seat))})` : "";
    return element(
      "div",
      { class: `seat${acting ? " acting" : ""}`, role: "group", "aria-label": `seat ${seat}${acting ? ", to act" : ""}` },
      element("h3", {}, `Seat ${seat}${team}${acting ? " \u2014 to act" : ""}`),
      element("div", { class: "tiles" }, ...tiles),
      discards,
    );
  });
  $("hands").replaceChildren(...seats);
}

function drawStuck(view) {
  const kinds = new Set(view.moves.map((m) => m.kind));
  $("pass").classList.toggle("lit", kinds.has("pass"));
  $("discard").classList.toggle("lit", kinds.has("discard"));
}

function drawTurn(view) {
  const state = view.state;
  $("turn").textContent = state.ending !== null
    ? `The hand is over: ${state.ending}.`
    : `Step ${page.step}: seat ${state.to_act} to act; ${view.moves.length} legal move${view.moves.length === 1 ? "" : "s"}.`;
}

function drawHistory() {
  const actions = page.document ? page.document.actions : [];
  const items = [element("li", { class: page.step === 0 ? "current" : "" },
    element("button", { type: "button", onclick: () => goTo(0) }, "the deal"))];
  actions.forEach((action, index) => {
    const current = index + 1 === page.step;
    items.push(element("li", { class: `${current ? "current" : ""}${index + 1 > page.step ? " ahead" : ""}`, "aria-current": current ? "step" : null },
      element("button", { type: "button", onclick: () => goTo(index + 1) }, `seat ${action.seat}: ${action.move}`)));
  });
  $("history").replaceChildren(...items);
  $("first").disabled = $("back").disabled = page.step === 0;
  $("last").disabled = $("forward").disabled = page.step >= actions.length;
}

function drawReckoning(result) {
  const box = $("reckoning");
  box.hidden = result === null;
  if (result === null) return;
  const side = result.settlement === "partnership" ? "pair" : "seat";
  const points = result.points.map((p, i) => `${side} ${i} ${p >= 0 ? "+" : ""}${p}`).join(", ");
  const winner = result.replay ? "No winner: the tied challenge is dealt again." : `Seat ${result.winner} wins${result.winning_team === null ? "" : ` for pair ${result.winning_team}`}.`;
  const decided = result.decided_by ? ` First place was decided by ${result.decided_by}.` : "";
  $("verdict").textContent = `${winner} Points (${result.settlement}): ${points}.${decided}`;
  $("counts").tBodies[0].replaceChildren(...result.keys.map((entry, place) => element("tr", {},
    element("td", {}, String(place + 1)), element("td", {}, String(entry.seat)),
    element("td", {}, String(entry.count)), element("td", {}, entry.lowest ?? "none"),
    element("td", {}, `(${entry.key.join(", ")})`))));
  $("notes").replaceChildren(...result.notes.map((note) =>
    element("li", { class: "note-fact" }, ruleLink(note.rule), " ", note.text)));
}

function shownValue(value) {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function drawCompare() {
  const box = $("compare");
  box.hidden = page.compare === null;
  if (page.compare === null) return;
  const c = page.compare;
  box.replaceChildren(
    element("strong", {}, `Conformance case ${c.case ?? ""} failed at step ${c.step}. `),
    `Its ${c.field ?? "answer"}: the engine answered `, element("code", { class: "engine" }, shownValue(c.engine)),
    "; the spec says ", element("code", { class: "spec" }, shownValue(c.spec)), ". ",
    ...(c.rule ? ["Rule ", ruleLink(c.rule), "."] : []),
  );
}

function draw() {
  const view = page.view;
  drawCompare();
  if (view.kind === "position") {
    $("line").replaceChildren(element("span", { class: "empty" }, `a finished position: ends ${view.position.ends.join(" and ")}`));
    $("hands").replaceChildren(...view.position.hands.map((hand, seat) => element("div", { class: "seat", role: "group", "aria-label": `seat ${seat}` },
      element("h3", {}, `Seat ${seat}`), element("div", { class: "tiles" }, ...hand.map((t) => element("span", { class: "tile laid", "aria-label": view.names[t] }, ...tileFace(...t.split("-"))))))));
    $("turn").textContent = "A finished position, as typed in: its reckoning is below.";
    page.document = null;
    drawHistory();
    drawReckoning(view.result);
    return;
  }
  drawLine(view.state);
  drawEnds(view.state);
  drawHands(view);
  drawStuck(view);
  drawTurn(view);
  drawHistory();
  drawReckoning(view.result);
}

function refuse(refusal) {
  const box = $("refusal");
  if (refusal === null) {
    box.replaceChildren();
    return;
  }
  box.replaceChildren(element("div", { class: "refused" },
    element("strong", {}, `Refused: seat ${refusal.seat}: ${refusal.move}. `),
    element("span", { class: "message" }, refusal.message), " ",
    element("span", {}, "(error "), element("code", { class: "code" }, refusal.code), element("span", {}, ", rule "),
    ruleLink(refusal.rule), element("span", {}, ")"),
    element("p", { class: "statement" }, refusal.statement)));
}

// --- acting ------------------------------------------------------------------------------

function transcript(step) {
  const d = page.document;
  return { format: d.format, rules: d.rules, deal: d.deal, first_hand: d.first_hand, actions: d.actions.slice(0, step) };
}

function answered(answer, where) {
  if (!answer.ok) {
    where.textContent = answer.error;
    return false;
  }
  where.textContent = "";
  return true;
}

function timed(what, call) {
  const start = performance.now();
  const answer = call();
  window.explorerTimings.push({ what, ms: performance.now() - start });
  return answer;
}

function goTo(step) {
  if (page.document === null) return;
  const bounded = Math.max(0, Math.min(step, page.document.actions.length));
  const answer = timed("show", () => page.reference.show(transcript(bounded)));
  if (!answered(answer, $("setup-error"))) return;
  page.step = bounded;
  page.view = answer.view;
  page.selected = null;
  refuse(null);
  draw();
}

function select(tile, seat) {
  page.selected = page.selected && page.selected.tile === tile ? null : { tile, seat };
  draw();
  const again = document.querySelector(`#hands [data-tile="${tile}"]`);
  if (again) again.focus();
}

function tryMove(move, seat) {
  if (page.document === null || page.view.kind !== "hand") return;
  const state = page.view.state;
  const said = seat !== undefined && seat !== state.to_act && state.to_act !== null ? `seat ${seat}: ${move}` : move;
  const answer = timed("move", () => page.reference.attempt(transcript(page.step), said));
  if (!answered(answer, $("setup-error"))) return;
  if (answer.refusal !== null) {
    refuse(answer.refusal);
    return;
  }
  const actions = answer.view.state.actions;
  page.document.actions = actions; // a move played here drops the steps that were ahead
  page.step = actions.length;
  page.view = answer.view;
  page.selected = null;
  refuse(null);
  draw();
  focusActing();
}

function placeOn(end) {
  if (page.selected === null) return;
  const state = page.view.state;
  const move = state.ends === null ? `lead ${page.selected.tile}` : `place ${page.selected.tile} ${end}`;
  tryMove(move, page.selected.seat);
}

function discard() {
  if (page.selected === null) {
    $("setup-error").textContent = "Select the tile to discard first.";
    return;
  }
  tryMove(`discard ${page.selected.tile}`, page.selected.seat);
}

// A hand (its transcript) or a finished position, from a deal, a link or a file.
function openDocument(doc, step = null, note = "") {
  const answer = timed("show", () => page.reference.show(doc));
  if (!answered(answer, $("setup-error"))) return false;
  page.view = answer.view;
  page.selected = null;
  $("share-note").textContent = note;
  refuse(null);
  if (answer.view.kind === "hand") {
    page.document = answer.view.state;
    page.step = page.document.actions.length;
    chooseSeats(page.document.rules.players);
    if (step !== null && step !== page.step) {
      goTo(step);
      return true;
    }
  }
  draw();
  return true;
}

function deal(event) {
  event.preventDefault();
  const request = { preset: $("preset").value, options: chosenOptions() };
  if (document.querySelector('input[name="by"]:checked').value === "typed") request.typed = $("typed").value;
  else request.seed = Number($("seed").value);
  const answer = timed("deal", () => page.reference.deal(request));
  if (!answered(answer, $("setup-error"))) return;
  page.compare = null;
  openDocument(answer.view.state);
  focusActing();
}

// After a deal or a move, the keyboard player is at the acting seat's tiles.
function focusActing() {
  const next = document.querySelector("#hands .seat.acting .tile.playable") || document.querySelector("#hands .seat.acting .tile");
  if (next) next.focus();
}

// --- the variant and its options -----------------------------------------------------------

function sourceLinks(keys) {
  return keys.flatMap((key, i) => [i ? ", " : "", element("a", { href: `${DOCS}bibliography.html#source-${key.toLowerCase()}` }, key)]);
}

function optionInput(option, value) {
  const id = `option-${option.name}`;
  if (option.kind === "choice") {
    return element("select", { id, "data-option": option.name },
      ...option.choices.map((choice) => element("option", { value: choice, selected: choice === value }, choice)));
  }
  if (option.kind === "boolean") {
    return element("input", { id, type: "checkbox", "data-option": option.name, checked: value });
  }
  const text = option.kind === "tiles" ? value.join(" ") : value === null ? "" : String(value);
  return element("input", { id, type: "text", size: option.kind === "tiles" ? 14 : 5, value: text, "data-option": option.name,
    placeholder: option.kind === "number or none" ? "none" : "" });
}

function drawOptions() {
  const preset = page.catalogue.presets.find((p) => p.name === $("preset").value);
  $("preset-title").replaceChildren(preset.title, " ", element("a", { href: `${DOCS}variants/${preset.name}.html` }, "About this variant"));
  const rows = page.catalogue.options.map((option) => {
    const cited = preset.options[option.name];
    const source = cited.sources.length ? [...sourceLinks(cited.sources), cited.note ? ` (${cited.note})` : ""] : ["the default"];
    return element("tr", {},
      element("th", { scope: "row" }, element("label", { for: `option-${option.name}`, title: option.doc },
        element("a", { href: `${DOCS}options.html#option-${option.name.replaceAll("_", "-")}` }, option.name))),
      element("td", {}, optionInput(option, cited.value)),
      element("td", {}, ...source));
  });
  $("options").tBodies[0].replaceChildren(...rows);
}

// The options as the form holds them, in their JSON form; the reference checks them.
function chosenOptions() {
  const chosen = {};
  for (const option of page.catalogue.options) {
    const input = $(`option-${option.name}`);
    if (option.kind === "boolean") chosen[option.name] = input.checked;
    else if (option.kind === "choice") chosen[option.name] = input.value;
    else if (option.kind === "tiles") chosen[option.name] = input.value.split(/\s+/).filter(Boolean);
    else if (input.value.trim() === "" && option.kind === "number or none") chosen[option.name] = null;
    else chosen[option.name] = /^-?\d+$/.test(input.value.trim()) ? Number(input.value) : input.value;
  }
  return chosen;
}

function chooseSeats(players) {
  const select = $("seat-view");
  const kept = select.value;
  select.replaceChildren(element("option", { value: "all" }, "every hand"),
    ...Array.from({ length: players }, (_, seat) => element("option", { value: String(seat) }, `seat ${seat}'s view`)));
  select.value = Number(kept) < players ? kept : "all";
}

// --- sharing -------------------------------------------------------------------------------

function shared() {
  if (page.view.kind === "position") return { rules: page.view.rules, position: page.view.position };
  const doc = { ...transcript(page.document.actions.length), step: page.step };
  if (page.compare) doc.compare = page.compare;
  return doc;
}

function link() {
  const url = new URL(location.href);
  url.hash = encodeURIComponent(JSON.stringify(shared()));
  history.replaceState(null, "", url);
  const done = () => { $("share-note").textContent = "The address bar holds the link to this step."; };
  if (navigator.clipboard) navigator.clipboard.writeText(url.href).then(done, done);
  else done();
}

function save() {
  const blob = new Blob([JSON.stringify(shared(), null, 1)], { type: "application/json" });
  const anchor = element("a", { href: URL.createObjectURL(blob), download: "gaple-hand.json" });
  anchor.click();
  URL.revokeObjectURL(anchor.href);
}

async function load(event) {
  const file = event.target.files[0];
  if (!file) return;
  let doc;
  try {
    doc = JSON.parse(await file.text());
  } catch (error) {
    $("setup-error").textContent = `${file.name} is not JSON: ${error.message}`;
    return;
  }
  page.compare = doc.compare ?? null;
  openDocument(doc, doc.step ?? null, `Opened ${file.name}.`);
}

function fromFragment() {
  if (location.hash.length <= 1) return false;
  let doc;
  try {
    doc = JSON.parse(decodeURIComponent(location.hash.slice(1)));
  } catch (error) {
    $("setup-error").textContent = `The link's position is not JSON: ${error.message}`;
    return false;
  }
  page.compare = doc.compare ?? null;
  return openDocument(doc, doc.step ?? null, "Opened from the link.");
}

// --- keys ----------------------------------------------------------------------------------

function key(event) {
  if (event.target.closest("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
  const actions = {
    l: () => placeOn("left"),
    r: () => placeOn("right"),
    d: discard,
    p: () => tryMove("pass", page.selected ? page.selected.seat : undefined),
    "[": () => goTo(page.step - 1),
    "]": () => goTo(page.step + 1),
  };
  const action = actions[event.key];
  if (action && page.view) {
    event.preventDefault();
    action();
  }
}

// --- start ---------------------------------------------------------------------------------

async function start() {
  window.explorerTimings = [];
  const began = performance.now();
  const readBytes = async (name) => new Uint8Array(await (await fetch(name)).arrayBuffer());
  page.reference = await startReference(loadPyodide, new URL("pyodide/", location.href).href, readBytes);
  page.catalogue = page.reference.catalogue();
  $("preset").replaceChildren(...page.catalogue.presets.map((p) => element("option", { value: p.name }, p.name)));
  drawOptions();
  $("preset").addEventListener("change", drawOptions);
  $("deal-form").addEventListener("submit", deal);
  $("seat-view").addEventListener("change", () => page.view && draw());
  $("end-left").addEventListener("click", () => placeOn("left"));
  $("end-right").addEventListener("click", () => placeOn("right"));
  $("pass").addEventListener("click", () => tryMove("pass", page.selected ? page.selected.seat : undefined));
  $("discard").addEventListener("click", discard);
  $("first").addEventListener("click", () => goTo(0));
  $("back").addEventListener("click", () => goTo(page.step - 1));
  $("forward").addEventListener("click", () => goTo(page.step + 1));
  $("last").addEventListener("click", () => goTo(page.document.actions.length));
  $("link").addEventListener("click", link);
  $("save").addEventListener("click", save);
  $("open").addEventListener("change", load);
  document.addEventListener("keydown", key);
  window.addEventListener("hashchange", fromFragment);
  if (!fromFragment()) $("deal").click();
  const seconds = ((performance.now() - began) / 1000).toFixed(1);
  $("status").textContent = `Ready: gaple ${page.reference.bundle.wheels.find((w) => w.startsWith("gaple")).split("-")[1]} on Pyodide ${page.reference.bundle.pyodide}, started in ${seconds} s.`;
  // For the tests and the benchmark: the same calls the page makes, and their timings.
  window.explorer = { reference: page.reference, playSeeded, seconds: Number(seconds) };
  document.body.dataset.ready = "true";
}

start().catch((error) => {
  $("status").textContent = `The reference did not start: ${error.message}`;
  document.body.dataset.ready = "failed";
});
