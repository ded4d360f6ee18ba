#!/usr/bin/env node
// Self-play with the template engine, logged with the transcript logger:
//   node examples/node/selfplay.mjs [--hands N] [--seed S] [--defect NAME] [--out FILE]
// plays N hands (default 100) of pagat's 4 x 7, every other one with passing instead of
// discarding, with seeded random legal moves, and writes one transcript a line to FILE
// (default: standard output), ready for `gaple check FILE` (or `... | gaple check -`).
//
// Exit status: 0 when done, also when the reader of standard output leaves early
// (`... | head -1`); 2, with one line on stderr, for a bad option or an output that cannot
// be written (a missing folder, a full disk).

import { DEFECTS } from "./defects.mjs";
import { DEFAULT_RULES, Game, moveText, tileText } from "./engine.mjs";
import { TranscriptLog, writeAll } from "./transcript.mjs";

/** mulberry32: a small seeded generator of numbers in [0, 1). */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The double-N set shuffled (Fisher-Yates) and dealt hand_size to each seat. */
function deal(rules, random) {
  const tiles = [];
  for (let a = 0; a <= rules.max_pip; a += 1) for (let b = a; b <= rules.max_pip; b += 1) tiles.push([a, b]);
  for (let i = tiles.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [tiles[i], tiles[j]] = [tiles[j], tiles[i]];
  }
  const hands = [...Array(rules.players).keys()].map((seat) =>
    tiles.slice(seat * rules.hand_size, (seat + 1) * rules.hand_size));
  return { hands, starter: null, set_aside: [], first_seat: Math.floor(random() * rules.players) };
}

/** One hand played out with random legal moves, recorded in log. */
function playHand(GameClass, rules, random, log) {
  const dealt = deal(rules, random);
  const asText = (tiles) => tiles.map(tileText);
  const hand = log.hand({ rules, deal: { ...dealt, hands: dealt.hands.map(asText) }, firstHand: true });
  const game = new GameClass(rules, dealt.hands, null, dealt.first_seat, true);
  while (game.toAct() !== null) {
    const moves = game.legalMoves();
    const move = moves[Math.floor(random() * moves.length)];
    const seat = game.toAct();
    game.play(seat, move);
    hand.action(seat, moveText(move), moves.map(moveText));
  }
  const { rules: _reasons, ...result } = game.result();
  hand.finish({
    offered: [],
    to_act: null,
    line: game.line,
    ends: game.ends(),
    hands: game.hands.map(asText),
    discards: game.discards.map(asText),
    ending: game.ending,
    result,
  });
}

/** A usage error or an output that failed: one line on stderr, exit status 2. */
function fail(message) {
  process.stderr.write(`selfplay.mjs: error: ${message}\n`);
  process.exit(2);
}

/** The options: every one checked here, so that a bad one stops the run before it starts. */
function parseOptions(args) {
  const options = { hands: "100", seed: "1", defect: undefined, out: undefined };
  for (let i = 0; i < args.length; i += 1) {
    // --name value or --name=value. A value after a space may start with "-" (--hands -1 is
    // then refused as a number), not with "--": that is the next option, the value missing.
    const [, name, inline] = /^--([^=]*)(?:=(.*))?$/s.exec(args[i]) ?? [];
    if (!Object.hasOwn(options, name ?? "")) fail(`unknown argument ${JSON.stringify(args[i])}`);
    const value = inline ?? args[(i += 1)];
    if (value === undefined || value === "" || (inline === undefined && value.startsWith("--"))) {
      fail(`--${name}: expected a value`);
    }
    options[name] = value;
  }
  // Whole numbers only (Number("1e9"), Number("1.5") and Number("") are numbers too): at least
  // one hand, and a seed of the 32 bits the generator keeps (a larger one would repeat one).
  const count = (name, min, max) => {
    const n = /^\d+$/.test(options[name]) ? Number(options[name]) : NaN;
    if (!(n >= min && n <= max)) {
      fail(`--${name}: expected a whole number from ${min} to ${max}, got ${JSON.stringify(options[name])}`);
    }
    return n;
  };
  if (options.defect !== undefined && !Object.hasOwn(DEFECTS, options.defect)) {
    fail(`--defect: expected one of ${Object.keys(DEFECTS).join(", ")}`);
  }
  return {
    hands: count("hands", 1, Number.MAX_SAFE_INTEGER),
    seed: count("seed", 0, 2 ** 32 - 1),
    GameClass: options.defect === undefined ? Game : DEFECTS[options.defect],
    out: options.out,
  };
}

const { hands, seed, GameClass, out } = parseOptions(process.argv.slice(2));
try {
  // Standard output (descriptor 1) is written as the file is, synchronously, so that a failed
  // write throws here at once; process.stdout.write would report it later, as an event.
  const log = out === undefined ? new TranscriptLog((line) => writeAll(1, line)) : TranscriptLog.toFile(out);
  const random = generator(seed);
  for (let n = 0; n < hands; n += 1) {
    const rules = { ...DEFAULT_RULES, blocked_action: n % 2 === 0 ? "discard" : "pass" };
    playHand(GameClass, rules, random, log);
  }
  log.close();
} catch (error) {
  // The reader has gone (EPIPE): stop writing, quietly and with status 0, as gaple does.
  if (error.code === "EPIPE") process.exit(0);
  // Not a failed system call (no syscall): a bug, shown with its stack trace.
  if (error.syscall === undefined) throw error;
  // Node's message is "ENOSPC: no space left on device, write": its part before the comma.
  fail(`${out === undefined ? "standard output" : out}: ${error.message.split(",")[0]}`);
}
