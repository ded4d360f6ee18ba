#!/usr/bin/env node
// A gaple protocol v1 adapter for an engine written in JavaScript or TypeScript, with no
// dependencies (Node 18 or later): `gaple conformance run --impl 'node examples/node/adapter.mjs'`.
//
// It reads one JSON request per line on stdin and writes exactly one JSON reply per line on
// stdout (spec/PROTOCOL.md); stderr is free for logs. It never stops on a bad request: that
// request gets {"type": "error", ...}; it ends on "bye" or at the end of stdin.
//
// To put your engine under test, copy this file and change only the part marked
// "FILL IN HERE": the five calls into the engine. As shipped, they call the tiny engine of
// engine.mjs beside this file. In TypeScript, give the replies the types of
// spec/protocol/*.schema.json; nothing else changes.

import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

import { CHOICES, DEFAULT_RULES, Game, LEFT, RIGHT, RuleError, moveText, tile } from "./engine.mjs";

/** A request that cannot be read; its message says where. */
export class BadRequest extends Error {}

// ==== FILL IN HERE: your engine ===========================================================
// The protocol part below hands these functions values already read and checked: rules as an
// object with every option, tiles as [low, high], moves as {kind, tile, end}.

/** The engine's calls, around a Game class (a subclass plays a seeded defect: defects.mjs). */
export function engineAround(GameClass, name = "node-template") {
  return {
    // What the hello reply says: the levels to check, and that rejections carry error codes
    // and rule IDs (drop "rules" from levels if your engine does not name rules). "plays"
    // declares what the engine plays: cases outside it are not sent, and declining a case
    // inside it fails the run (an engine declaring nothing that declines cases is PARTIAL).
    hello: {
      name,
      version: "1.0",
      levels: ["line", "turns", "count", "points", "rules"],
      plays: { options: { settlement: ["per-hand", "chips", "difference", "cumulative"] } },
    },

    /** A new hand, or a string: the reason the engine does not play these rules. */
    start(rules, deal, firstHand) {
      if (rules.settlement === "partnership") {
        return "the Sundanese pair scoring (settlement partnership) is not implemented";
      }
      if (rules.partnership && rules.settlement !== "per-hand") {
        return `${rules.settlement} settlement between pairs is not defined`;
      }
      return new GameClass(rules, deal.hands, deal.starter, deal.first_seat, firstHand);
    },

    /** What the engine shows: the fields of the protocol's state reply. */
    observe(game) {
      return {
        to_act: game.toAct(),
        line: game.line.map((piece) => [...piece]),
        ends: game.ends(),
        hand_sizes: game.hands.map((hand) => hand.length),
        discard_counts: game.discards.map((pile) => pile.length),
        legal: game.legalMoves().map(moveText),
        ending: game.ending,
      };
    },

    /** Make the move: null when accepted, else {code, rule, message}. A refused move must
     * leave the hand unchanged. */
    act(game, seat, move) {
      try {
        game.play(seat, move);
        return null;
      } catch (error) {
        if (!(error instanceof RuleError)) throw error;
        return { code: error.code, rule: error.rule, message: error.message };
      }
    },

    /** Whether the hand has ended (a result is only asked for then). */
    over(game) {
      return game.ending !== null;
    },

    /** The finished hand's result: counts, winner, winning_team, points, replay, rules. */
    result(game) {
      return game.result();
    },
  };
}

export const ENGINE = engineAround(Game);
// ==== END OF FILL IN HERE: the protocol below needs no change =============================

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
  const texts = new Set(dealt.map(([a, b]) => `${a}-${b}`));
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
    this.game = null;
  }

  /** The reply to one request; a BadRequest for a request it cannot answer. */
  handle(request) {
    if (request === null || typeof request !== "object" || Array.isArray(request)) {
      throw new BadRequest("a request must be a JSON object");
    }
    switch (request.type) {
      case "hello": return this.hello(request);
      case "start": return this.start(request);
      case "state": return { type: "state", ...this.engine.observe(this.current()) };
      case "act": return this.act(request);
      case "result": return this.result();
      case "batch": return this.batch(request);
      case "bye": return { type: "bye" };
      default: throw new BadRequest(`unknown request type ${JSON.stringify(request.type)}`);
    }
  }

  hello(request) {
    if (request.protocol !== 1) throw new BadRequest(`only protocol 1 is spoken, got ${JSON.stringify(request.protocol)}`);
    return { type: "hello", protocol: 1, ...this.engine.hello, error_codes: true, batch: true };
  }

  start(request) {
    this.game = null;
    const rules = readRules(request.rules);
    if (typeof rules === "string") return { type: "unsupported", reason: rules };
    const firstHand = request.first_hand ?? true;
    if (typeof firstHand !== "boolean") throw new BadRequest("first_hand: expected true or false");
    const game = this.engine.start(rules, readDeal(request.deal, rules), firstHand);
    if (typeof game === "string") return { type: "unsupported", reason: game };
    this.game = game;
    return { type: "started" };
  }

  current() {
    if (this.game === null) throw new BadRequest("no hand has been started");
    return this.game;
  }

  act(request) {
    const game = this.current();
    if (!Number.isInteger(request.seat)) throw new BadRequest("seat: expected an integer");
    const refusal = this.engine.act(game, request.seat, readMove(request.move));
    return refusal === null ? { type: "ok" } : { type: "rejected", ...refusal };
  }

  result() {
    const game = this.current();
    if (!this.engine.over(game)) throw new BadRequest("the hand has not ended");
    return { type: "result", ...this.engine.result(game) };
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

/** The engine named by `--defect NAME` (a seeded defect, for testing the kit), else ENGINE. */
async function chosenEngine(args) {
  const at = args.indexOf("--defect");
  if (at < 0) return ENGINE;
  const { DEFECTS } = await import("./defects.mjs");
  const name = args[at + 1];
  if (!(name in DEFECTS)) {
    process.stderr.write(`adapter.mjs: error: --defect: expected one of ${Object.keys(DEFECTS).join(", ")}\n`);
    process.exit(2);
  }
  return engineAround(DEFECTS[name], `node-template-${name}`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  // Replies that cannot be written end the adapter in one line, not a stack trace: quietly,
  // with status 0, when the reader has gone (EPIPE), as gaple does; else (a full disk) status 2.
  process.stdout.on("error", (error) => {
    if (error.code === "EPIPE") process.exit(0);
    process.stderr.write(`adapter.mjs: error: standard output: ${error.message.split(",")[0]}\n`);
    process.exit(2);
  });
  await serve(await chosenEngine(process.argv.slice(2)));
}
