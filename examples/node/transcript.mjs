// A transcript logger for a JavaScript or TypeScript engine, with no dependencies: each hand
// the engine plays becomes one line of JSON (JSON lines) in the form `gaple check` reads
// (spec/schema/transcript.schema.json), so a self-play log of any length is checked with
// `gaple check selfplay.jsonl`.
//
//   const log = TranscriptLog.toFile("selfplay.jsonl");
//   const hand = log.hand({ rules, deal, firstHand: true });
//   hand.action(seat, "place 0-3 left", offeredBefore);   // for every action, in order
//   hand.finish({ offered, to_act, line, ends, hands, discards, ending, result });
//
// Values are in the protocol's forms: tiles "0-3", moves "place 0-3 left", rules with the
// options' names, the deal {hands, starter, set_aside, first_seat}. `offered` (the moves the
// engine offered before an action, and after the last one) and every field given to finish
// are optional; each one given is compared with the spec. The result's fields are counts,
// winner, winning_team, points and replay (gaple check refuses a result's "rules"). Hands and
// discards are written sorted by tile, low half first, the order in which gaple check
// compares them: the same tiles in the order they were dealt or discarded would diverge.

import { closeSync, openSync, writeSync } from "node:fs";

/** What finish may record: what the engine showed at the end, and its result. */
const SHOWN = ["offered", "to_act", "line", "ends", "hands", "discards", "ending", "result"];

/** The tiles ("0-3") of each seat, sorted by low half, then high half. A value that is not a
 * list of tiles (a seat's "2", say) is the engine's own: it is logged as given, for gaple
 * check to judge, neither split into characters nor dropped. */
function sortedTiles(seats) {
  const isTile = (t) => typeof t === "string" && /^\d+-\d+$/.test(t);
  const isTiles = (tiles) => Array.isArray(tiles) && tiles.every(isTile);
  const key = (text) => text.split("-").map(Number);
  const before = (a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0] - y[0] || x[1] - y[1];
  };
  if (!Array.isArray(seats)) return seats;
  return seats.map((tiles) => (isTiles(tiles) ? [...tiles].sort(before) : tiles));
}

/** A 5 ms sleep for writeAll (Atomics.wait on memory nobody changes). */
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/** Write all of text to the file descriptor fd, synchronously: a failure (a full disk, a
 * reader gone) throws here, at the write that failed. A descriptor that the program which
 * started this one left non-blocking may take part of the text, or none for a while (EAGAIN,
 * its reader being slow): the rest is written once the reader has caught up. */
export function writeAll(fd, text) {
  let rest = Buffer.from(text);
  while (rest.length > 0) {
    try {
      rest = rest.subarray(writeSync(fd, rest));
    } catch (error) {
      if (error.code !== "EAGAIN") throw error;
      Atomics.wait(PAUSE, 0, 0, 5);
    }
  }
}

/** One hand being recorded; finish writes it. */
export class HandTranscript {
  constructor(write, rules, deal, firstHand) {
    this.write = write;
    this.record = { format: 1, rules, deal, first_hand: firstHand, actions: [] };
    this.finished = false;
  }

  /** Record seat's move, with the moves the engine offered just before it (optional). */
  action(seat, move, offered) {
    if (this.finished) throw new Error("the transcript of this hand is already written");
    this.record.actions.push(offered === undefined ? { seat, move } : { seat, move, offered });
  }

  /** Write the hand as one line, with what the engine showed at the end (any of SHOWN). */
  finish(shown = {}) {
    if (this.finished) throw new Error("the transcript of this hand is already written");
    const unknown = Object.keys(shown).filter((key) => !SHOWN.includes(key));
    if (unknown.length > 0) throw new TypeError(`not a field of a transcript: ${unknown.join(", ")}`);
    this.finished = true;
    const record = { ...this.record, ...shown };
    for (const name of ["hands", "discards"]) {
      if (name in shown) record[name] = sortedTiles(shown[name]);
    }
    this.write(`${JSON.stringify(record)}\n`);
  }
}

/** A log of transcripts, one line each, written through write(line). */
export class TranscriptLog {
  constructor(write) {
    this.write = write;
  }

  /** A log appended to the file at path (created if missing); close() closes it. */
  static toFile(path) {
    const fd = openSync(path, "a");
    const log = new TranscriptLog((line) => writeAll(fd, line));
    log.close = () => closeSync(fd);
    return log;
  }

  /** Start recording a hand; firstHand says whether first_lead applies (a match's first). */
  hand({ rules, deal, firstHand = true }) {
    return new HandTranscript(this.write, rules, deal, firstHand);
  }

  close() {}
}
