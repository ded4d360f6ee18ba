#!/usr/bin/env node
// Self-play with the template engine, logged with the transcript logger:
//   node examples/node/selfplay.mjs [--hands N] [--seed S] [--defect NAME] [--out FILE]
// plays N hands (default 100) of pagat's 4 x 7, every other one with passing instead of
// discarding, with seeded random legal moves, and writes one transcript a line to FILE
// (default: standard output), ready for `gaple check FILE` (or `... | gaple check -`).

import { parseArgs } from "node:util";

import { DEFECTS } from "./defects.mjs";
import { DEFAULT_RULES, Game, moveText, tileText } from "./engine.mjs";
import { TranscriptLog } from "./transcript.mjs";

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

const { values } = parseArgs({
  options: {
    hands: { type: "string", default: "100" },
    seed: { type: "string", default: "1" },
    defect: { type: "string" },
    out: { type: "string" },
  },
});
const GameClass = values.defect === undefined ? Game : DEFECTS[values.defect];
if (GameClass === undefined) {
  process.stderr.write(`selfplay.mjs: error: --defect: expected one of ${Object.keys(DEFECTS).join(", ")}\n`);
  process.exit(2);
}
const log = values.out === undefined
  ? new TranscriptLog((line) => process.stdout.write(line))
  : TranscriptLog.toFile(values.out);
const random = generator(Number(values.seed));
for (let n = 0; n < Number(values.hands); n += 1) {
  const rules = { ...DEFAULT_RULES, blocked_action: n % 2 === 0 ? "discard" : "pass" };
  playHand(GameClass, rules, random, log);
}
log.close();
