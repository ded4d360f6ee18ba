#!/usr/bin/env node
// A gaple protocol v1 adapter for an engine written in JavaScript or TypeScript, with no
// dependencies (Node 18 or later), written by `gaple template node DIR`. Run the suite with
// `gaple conformance run --impl 'node DIR/adapter.mjs'`.
//
// It reads one JSON request per line on stdin and writes exactly one JSON reply per line on
// stdout (PROTOCOL.md, which `gaple spec --out DIR` writes); stderr is free for logs. It never
// stops on a bad request: that request gets {"type": "error", ...}; it ends on "bye" or at the
// end of stdin.
//
// Change only the block marked "FILL IN HERE": the calls into your engine. Everything else is
// the protocol, complete on its own. protocol.d.ts, beside this file, gives TypeScript (and
// `// @ts-check`) the shapes of every request and reply and of the engine's calls.

import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

// ==== FILL IN HERE: the calls into your engine ==============================================
// Import your engine here and make these calls into it. The protocol part below hands them
// values already read and checked: rules with every option (tiles as [low, high]), the deal as
// {hands, starter, first_seat}, moves as {kind, tile, end}; it writes what they return as the
// protocol's replies. As written, no engine is called: every hand is declined with the reason
// below, so `gaple conformance run` ends NOTHING CHECKED and says what is missing.

const MISSING = "adapter.mjs calls no engine yet: fill in its block marked FILL IN HERE";

/**
 * The engine's calls; args are the adapter's command-line arguments (none as the kit starts
 * it, unless the --impl command gives some).
 * @param {string[]} args
 * @returns {import("./protocol").Engine<unknown>}
 */
export function engineFor(args) {
  return {
    // What the hello reply says: the levels to check (add "rules" if your engine's rejections
    // and results name the rule IDs); "plays" may declare what the engine plays (PROTOCOL.md).
    hello: { name: "my-engine", version: "0.1", levels: ["line", "turns", "count", "points"] },
    /** A new hand, or a string: the reason the engine does not play these rules. */
    start(rules, deal, firstHand) {
      return MISSING;
    },
    /** What the engine shows: to_act, line, ends, hand_sizes, discard_counts, legal (moves),
     * ending. */
    observe(hand) {
      throw new Error(MISSING);
    },
    /** Make the move: null when accepted, else {code, rule, message}; a refused move must
     * leave the hand unchanged. */
    act(hand, seat, move) {
      throw new Error(MISSING);
    },
    /** Whether the hand has ended (a result is only asked for then). */
    over(hand) {
      throw new Error(MISSING);
    },
    /** The finished hand's result: counts, winner, winning_team, points, replay, rules. */
    result(hand) {
      throw new Error(MISSING);
    },
  };
}
// ==== END OF FILL IN HERE: the protocol below needs no change ==============================

export const LEFT = "left";
export const RIGHT = "right";

/** Every option of a hand with its default (pagat's 4 x 7), as the protocol names them. */
export const DEFAULT_RULES = Object.freeze({
  max_pip: 6,
  players: 4,
  hand_size: 7,
  partnership: false,
  first_lead: "double-blank",
  later_lead: "double",
  forbidden_leads: [],
  blocked_action: "discard",
  double_blank_25: false,
  settlement: "per-hand",
  target: null,
  match_hands: null,
  challenge_tie: "replay",
  challenge_win_base: "all",
  challenge_win_multiplier: 1,
  challenge_loss_base: "all",
  challenge_loss_multiplier: 2,
  top_double_bonus: 0,
  blank_double_bonus: 0,
  dead_double_debit: false,
  closing_any_double: false,
});

/** The values an option of a fixed list may take. */
export const CHOICES = Object.freeze({
  first_lead: ["double-blank", "double", "any-tile"],
  later_lead: ["double-blank", "double", "any-tile"],
  blocked_action: ["pass", "discard"],
  settlement: ["per-hand", "chips", "difference", "cumulative", "partnership"],
  challenge_tie: ["replay", "blocker-loses"],
  challenge_win_base: ["all", "blocker-pair", "other-pair"],
  challenge_loss_base: ["all", "blocker-pair", "other-pair"],
});

/** The tile with halves a and b, low half first. */
export function tile(a, b) {
  return a <= b ? [a, b] : [b, a];
}

/** [0, 3] -> "0-3". */
export function tileText(t) {
  return `${t[0]}-${t[1]}`;
}

/** {kind: "place", tile: [0, 3], end: "left"} -> "place 0-3 left"; "lead 0-0", "pass",
 * "discard 4-4". */
export function moveText(move) {
  if (move.kind === "pass") return "pass";
  const text = `${move.kind} ${tileText(move.tile)}`;
  return move.kind === "place" ? `${text} ${move.end}` : text;
}

/** A request that cannot be read; its message says where. */
export class BadRequest extends Error {}

const BATCHED = new Set(["start", "state", "act", "result"]);

function readTile(value, where) {
  const match = typeof value === "string" ? /^(\d{1,2})-(\d{1,2})$/.exec(value) : null;
  if (match === null) throw new BadRequest(`${where}: expected a tile such as '0-3', got ${JSON.stringify(value)}`);
  return tile(Number(match[1]), Number(match[2]));
}

function readTiles(value, where) {
  if (!Array.isArray(value)) throw new BadRequest(`${where}: expected a list of tiles`);
  return value.map((item, i) => readTile(item, `${where}[${i}]`));
}

/** "lead T" | "place T left|right" | "pass" | "discard T". */
export function readMove(text) {
  const words = typeof text === "string" ? text.split(" ") : [];
  if (words.length === 1 && words[0] === "pass") return { kind: "pass" };
  if (words.length === 2 && (words[0] === "lead" || words[0] === "discard")) {
    return { kind: words[0], tile: readTile(words[1], "move") };
  }
  if (words.length === 3 && words[0] === "place" && (words[2] === LEFT || words[2] === RIGHT)) {
    return { kind: "place", tile: readTile(words[1], "move"), end: words[2] };
  }
  throw new BadRequest(`move: expected 'lead T', 'place T left|right', 'pass' or 'discard T', got ${JSON.stringify(text)}`);
}

/** The ruleset: a missing option keeps its default; an unknown one is unsupported (a
 * string, the reason), a value of the wrong type a BadRequest. */
function readRules(data) {
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new BadRequest("rules: expected an object");
  }
  const unknown = Object.keys(data).filter((name) => !(name in DEFAULT_RULES));
  if (unknown.length > 0) return `unknown rule option(s): ${unknown.sort().join(", ")}`;
  const rules = { ...DEFAULT_RULES, ...data };
  for (const [name, value] of Object.entries(rules)) {
    const fallback = DEFAULT_RULES[name];
    const where = `rules.${name}`;
    if (name === "forbidden_leads") rules[name] = readTiles(value, where);
    else if (name in CHOICES && !CHOICES[name].includes(value)) {
      throw new BadRequest(`${where}: expected one of ${CHOICES[name].join(", ")}`);
    } else if (typeof fallback === "boolean" && typeof value !== "boolean") {
      throw new BadRequest(`${where}: expected true or false`);
    } else if (typeof fallback === "number" || fallback === null) {
      if (!(Number.isInteger(value) || (fallback === null && value === null))) {
        throw new BadRequest(`${where}: expected an integer`);
      }
    }
  }
  return rules;
}

/** The deal, checked against the rules: one hand per seat, each tile of the set once. */
function readDeal(data, rules) {
  if (data === null || typeof data !== "object" || !Array.isArray(data.hands)) {
    throw new BadRequest("deal: expected an object with 'hands'");
  }
  const hands = data.hands.map((hand, i) => readTiles(hand, `deal.hands[${i}]`));
  const starter = data.starter == null ? null : readTile(data.starter, "deal.starter");
  const setAside = readTiles(data.set_aside ?? [], "deal.set_aside");
  const firstSeat = data.first_seat ?? 0;
  if (hands.length !== rules.players) throw new BadRequest(`deal.hands: ${hands.length} hands for ${rules.players} seats`);
  if (!Number.isInteger(firstSeat) || firstSeat < 0 || firstSeat >= rules.players) {
    throw new BadRequest(`deal.first_seat: not a seat: ${JSON.stringify(firstSeat)}`);
  }
  const dealt = [...hands.flat(), ...setAside, ...(starter === null ? [] : [starter])];
  const texts = new Set(dealt.map(tileText));
  const size = ((rules.max_pip + 1) * (rules.max_pip + 2)) / 2;
  const inSet = dealt.every((t) => t[1] <= rules.max_pip);
  if (texts.size !== dealt.length || dealt.length !== size || !inSet) {
    throw new BadRequest("deal: the tiles dealt are not the set, each tile exactly once");
  }
  return { hands, starter, first_seat: firstSeat };
}

/** The adapter's state between requests: at most one hand in play. */
export class Session {
  constructor(engine) {
    this.engine = engine;
    this.hand = null;
  }

  /** The reply to one request; a BadRequest for a request it cannot answer. */
  handle(request) {
    if (request === null || typeof request !== "object" || Array.isArray(request)) {
      throw new BadRequest("a request must be a JSON object");
    }
    switch (request.type) {
      case "hello": return this.hello(request);
      case "start": return this.start(request);
      case "state": return this.state();
      case "act": return this.act(request);
      case "result": return this.result();
      case "batch": return this.batch(request);
      case "bye": return { type: "bye" };
      default: throw new BadRequest(`unknown request type ${JSON.stringify(request.type)}`);
    }
  }

  hello(request) {
    if (request.protocol !== 1) throw new BadRequest(`only protocol 1 is spoken, got ${JSON.stringify(request.protocol)}`);
    return { type: "hello", protocol: 1, error_codes: true, ...this.engine.hello, batch: true };
  }

  start(request) {
    this.hand = null;
    const rules = readRules(request.rules);
    if (typeof rules === "string") return { type: "unsupported", reason: rules };
    const firstHand = request.first_hand ?? true;
    if (typeof firstHand !== "boolean") throw new BadRequest("first_hand: expected true or false");
    const hand = this.engine.start(rules, readDeal(request.deal, rules), firstHand);
    if (typeof hand === "string") return { type: "unsupported", reason: hand };
    this.hand = hand;
    return { type: "started" };
  }

  current() {
    if (this.hand === null) throw new BadRequest("no hand has been started");
    return this.hand;
  }

  /** The state reply: the fields the protocol names, the legal moves as text. */
  state() {
    const shown = this.engine.observe(this.current());
    return {
      type: "state",
      to_act: shown.to_act,
      line: shown.line,
      ends: shown.ends,
      hand_sizes: shown.hand_sizes,
      discard_counts: shown.discard_counts,
      legal: shown.legal.map(moveText),
      ending: shown.ending,
    };
  }

  act(request) {
    const hand = this.current();
    if (!Number.isInteger(request.seat)) throw new BadRequest("seat: expected an integer");
    const refusal = this.engine.act(hand, request.seat, readMove(request.move));
    return refusal === null ? { type: "ok" } : { type: "rejected", ...refusal };
  }

  result() {
    const hand = this.current();
    if (!this.engine.over(hand)) throw new BadRequest("the hand has not ended");
    return { type: "result", ...this.engine.result(hand) };
  }

  /** Several requests answered in order, each failure its own error reply. */
  batch(request) {
    if (!Array.isArray(request.requests)) throw new BadRequest("requests: expected a list");
    return { type: "batch", replies: request.requests.map((r) => this.answer(r)) };
  }

  answer(request) {
    if (!BATCHED.has(request?.type)) return { type: "error", message: `${JSON.stringify(request?.type)} cannot be batched` };
    try {
      return this.handle(request);
    } catch (error) {
      return { type: "error", message: describe(error) };
    }
  }
}

function describe(error) {
  return error instanceof BadRequest ? error.message : `internal error: ${error?.stack ?? error}`;
}

/** Answer requests from input until "bye" or the end of input. */
export async function serve(engine, input = process.stdin, output = process.stdout) {
  const session = new Session(engine);
  let number = 0;
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    number += 1;
    if (line.trim() === "") continue;
    let reply;
    try {
      reply = session.handle(JSON.parse(line));
    } catch (error) {
      const why = error instanceof SyntaxError ? `not JSON: ${error.message}` : describe(error);
      reply = { type: "error", message: `request ${number}: ${why}` };
    }
    output.write(`${JSON.stringify(reply)}\n`);
    if (reply.type === "bye") break;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  // Replies that cannot be written end the adapter in one line, not a stack trace: quietly,
  // with status 0, when the reader has gone (EPIPE), as gaple does; else (a full disk) status 2.
  process.stdout.on("error", (error) => {
    if (error.code === "EPIPE") process.exit(0);
    process.stderr.write(`adapter.mjs: error: standard output: ${error.message.split(",")[0]}\n`);
    process.exit(2);
  });
  await serve(engineFor(process.argv.slice(2)));
}
